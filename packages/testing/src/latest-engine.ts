import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { modernKeeperQueryId } from './modern-engine.js'
import type { ClickHouseCommand } from './server-binary.js'

/** The PyPI wheel whose `chdb/_chdb.abi3.so` holds ClickHouse 26.9.2.1 (revision 54492). */
export const latestEnginePackage = 'chdb-core==26.9.0'

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..')
const launcherScript = join(packageRoot, 'native', 'chdb-core-server.py')

/**
 * The unzipped wheel (`scripts/install-chdb-core.sh`, run by the bootstrap, puts it there),
 * or undefined when it is not installed.
 */
export function latestEngineDir(): string | undefined {
  const dir = join(packageRoot, 'node_modules', '.cache', 'clickwire', 'chdb-core-26.9.0')
  return existsSync(join(dir, 'chdb', '_chdb.abi3.so')) ? dir : undefined
}

/**
 * How to start the 26.9 engine as a server with the harness's config in `dir`: the machine's
 * python3 runs `native/chdb-core-server.py`, which calls the wheel's `_chdb.query()` with the
 * same listen-then-sleep query as the 26.7 launcher. That entry point takes no command-line
 * options, but clickhouse-local reads them from the config.xml in its working directory (the
 * keeper starts the server in `dir`): the keeper query's id comes from there.
 */
export function latestServerCommand(): ClickHouseCommand | undefined {
  const wheel = latestEngineDir()
  if (!wheel) return undefined
  const python = process.env.PYTHON || 'python3'
  return {
    file: python,
    args: [launcherScript, wheel],
    generation: 'modern',
    line: '26.9',
    configQueryId: modernKeeperQueryId,
    argsFor: (dir: string) => [launcherScript, wheel, `${join(dir, 'data')}/`],
  }
}

/**
 * Why tests of server log lines skip on 26.9: this engine sends no Log packets, whatever
 * `send_logs_level` asks (Debian's C++ clickhouse-client gets none from it either, at trace
 * level too), although it writes the same lines to its own log file. 26.7 sends them.
 */
export const latestServerLogsMissing =
  'the 26.9 test engine (chDB 26.9 from PyPI) sends no Log packets, whatever send_logs_level asks (clickhouse-client gets none either)'
