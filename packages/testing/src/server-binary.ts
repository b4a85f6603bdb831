import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { ServerGeneration, ServerLine } from './server-generation.js'

/** How to launch a ClickHouse program: the executable and the arguments before ours. */
export interface ClickHouseCommand {
  readonly file: string
  readonly args: readonly string[]
  /** Which generation this program is, when known before it runs. */
  readonly generation?: ServerGeneration | undefined
  /** Which release line this program is, when known before it runs. */
  readonly line?: ServerLine | undefined
  /**
   * The query id of the engine's own keeper query, written into config.xml as clickhouse-local's
   * `query_id` option (for engines whose entry point takes no command-line options).
   */
  readonly configQueryId?: string | undefined
  /** The whole argument list for a server whose folder is `dir` (default: `args` + `--config-file`). */
  readonly argsFor?: ((dir: string) => readonly string[]) | undefined
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** Finds an executable on PATH (plus the sbin folders Debian installs the server into). */
export function which(name: string, path = process.env.PATH ?? ''): string | undefined {
  const folders = [...path.split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/bin']
  for (const folder of folders) {
    if (folder === '') continue
    const candidate = join(folder, name)
    if (isExecutable(candidate)) return candidate
  }
  return undefined
}

/**
 * The server program: `CLICKHOUSE_SERVER_BIN` first, then `clickhouse-server` on PATH
 * (Debian's package), then the single modern `clickhouse` binary as `clickhouse server`.
 */
export function findServerCommand(env: NodeJS.ProcessEnv = process.env): ClickHouseCommand | undefined {
  const explicit = env.CLICKHOUSE_SERVER_BIN
  if (explicit) {
    if (!isExecutable(explicit))
      throw new Error(`CLICKHOUSE_SERVER_BIN=${explicit} is not an executable file`)
    return explicit.endsWith('/clickhouse')
      ? { file: explicit, args: ['server'] }
      : { file: explicit, args: [] }
  }
  const server = which('clickhouse-server', env.PATH)
  if (server) return { file: server, args: [], generation: 'legacy' }
  const single = which('clickhouse', env.PATH)
  if (single) return { file: single, args: ['server'] }
  return undefined
}

/** The command-line client, used by tests as an independent oracle. */
export function findClientCommand(env: NodeJS.ProcessEnv = process.env): ClickHouseCommand | undefined {
  const explicit = env.CLICKHOUSE_CLIENT_BIN
  if (explicit) return { file: explicit, args: [] }
  const client = which('clickhouse-client', env.PATH)
  if (client) return { file: client, args: [] }
  const single = which('clickhouse', env.PATH)
  if (single) return { file: single, args: ['client'] }
  return undefined
}

/** The one message shown when no server can be found or started. */
export const installHint = [
  'No ClickHouse server is available for the tests.',
  'Install one of:',
  '  - Debian/Ubuntu (root): scripts/install-clickhouse.sh   (apt-get install clickhouse-server clickhouse-client)',
  '  - the modern engine (CLICKWIRE_SERVER=modern): pnpm install brings @chdb/lib-linux-x64-gnu, and a C compiler (cc) builds its launcher',
  '  - the newest engine (CLICKWIRE_SERVER=latest): scripts/install-chdb-core.sh (PyPI chdb-core 26.9.0, run with python3)',
  '  - any OS: a `clickhouse` binary on PATH, or CLICKHOUSE_SERVER_BIN=/path/to/clickhouse-server',
  '  - a running Docker engine (tests then start clickhouse/clickhouse-server through testcontainers)',
  'or point the tests at an existing server: CLICKHOUSE_URL=http://user:password@host:8123 (or clickhouse://host:9000).',
].join('\n')
