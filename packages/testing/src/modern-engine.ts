import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rename } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ClickHouseCommand } from './server-binary.js'

/** The npm package whose libchdb.so holds ClickHouse 26.7.2.1 with its server handlers. */
export const modernEnginePackage = '@chdb/lib-linux-x64-gnu'

/**
 * The query that makes clickhouse-local a server: it opens the TCP and HTTP listeners of the
 * config, then runs forever. Its query id lets tests that count or kill queries leave it out.
 * (This engine opens no TLS listeners: SYSTEM START LISTEN TCP SECURE is refused there.)
 */
export const modernKeeperQueryId = 'clickwire-harness-keeper'
const listenQuery = [
  'SYSTEM START LISTEN TCP',
  'SYSTEM START LISTEN HTTP',
  'SELECT sleepEachRow(1) FROM system.numbers SETTINGS max_block_size = 1 FORMAT Null',
].join('; ')

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..')
const launcherSource = join(packageRoot, 'native', 'chdb-server.c')

/** libchdb.so of the pinned package, or undefined when it is not installed (not x64 Linux). */
export function modernEngineLibrary(): string | undefined {
  try {
    const require = createRequire(join(packageRoot, 'package.json'))
    const manifest = require.resolve(`${modernEnginePackage}/package.json`)
    const library = join(dirname(manifest), 'libchdb.so')
    return existsSync(library) ? library : undefined
  } catch {
    return undefined
  }
}

function compile(source: string, output: string): Promise<void> {
  const compiler = process.env.CC || 'cc'
  return new Promise((resolve, reject) => {
    execFile(compiler, ['-O2', '-o', output, source, '-ldl'], (error, _stdout, stderr) => {
      if (error)
        reject(
          new Error(`cannot build the modern server launcher with ${compiler}: ${stderr || error.message}`),
        )
      else resolve()
    })
  })
}

/**
 * The launcher program, compiled once per source version into node_modules/.cache (a C
 * compiler is on every machine this project runs on; scripts/bootstrap.sh builds it too).
 */
export async function modernLauncher(): Promise<string> {
  const source = await readFile(launcherSource)
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12)
  const folder = join(packageRoot, 'node_modules', '.cache', 'clickwire')
  const output = join(folder, `chdb-server-${hash}`)
  if (existsSync(output)) return output
  await mkdir(folder, { recursive: true })
  // Two test processes may build at once: each writes its own file, the rename is atomic.
  const scratch = `${output}.${process.pid}.tmp`
  await compile(launcherSource, scratch)
  await rename(scratch, output)
  return output
}

/** How to start the modern engine as a server with the harness's config in `dir`. */
export async function modernServerCommand(): Promise<ClickHouseCommand | undefined> {
  const library = modernEngineLibrary()
  if (!library) return undefined
  const launcher = await modernLauncher()
  return {
    file: launcher,
    args: [library],
    generation: 'modern',
    line: '26.7',
    argsFor: (dir: string) => [
      library,
      `--config-file=${join(dir, 'config.xml')}`,
      `--path=${join(dir, 'data')}/`,
      '--multiquery',
      '--output-format=TabSeparated',
      `--query_id=${modernKeeperQueryId}`,
      '--query',
      listenQuery,
    ],
  }
}

/**
 * Why some tests are skipped or changed on the modern engines (26.7 and 26.9 alike). This build of the engine
 * aborts the whole process (std::terminate, "The server is shutting down due to a fatal
 * error") when a connection's handler ends in an exception it rethrows: a failed native
 * login (516), a native Hello cut short, an error raised after the client has gone, or a TCP
 * reset on a connection it is reading from (an idle pooled connection, an HTTP request body
 * cut short). Debian's C++ clickhouse-client with a wrong password kills it the same way.
 * clickhouse-server of any version answers these cases and keeps running; the engine inside
 * chDB does not. The fault proxy therefore closes the server's side of a reset with a FIN on
 * this engine (`resetServer: false`): the client still sees the reset.
 */
export const modernHandshakeAbort =
  'the modern test engines (chDB 26.7 and 26.9) abort the whole process when a native login fails or a Hello is cut short'

/**
 * Why a test that drops a connection while the server still answers on it is skipped on
 * the modern engine: the error the server then fails to deliver (EPIPE) terminates it.
 */
export const modernLateErrorAbort =
  'the modern test engines (chDB 26.7 and 26.9) abort the whole process when they cannot deliver an answer to a client that has gone'

/**
 * Why replicated-cluster tests skip on the modern engine. It reads `remote_servers`,
 * `macros` and `<zookeeper>` and connects to ZooKeeper, and Distributed tables work, but
 * as clickhouse-local it runs no DDL worker and never activates a replica: ON CLUSTER is
 * refused (392 QUERY_IS_PROHIBITED "Replicated DDL queries are disabled"), a
 * ReplicatedMergeTree table stays `is_readonly = 1` with no active replica, so an INSERT
 * fails with 242 TABLE_IS_READ_ONLY (after its keeper retries), and system.zookeeper does
 * not exist (60 UNKNOWN_TABLE).
 */
export const modernReplicationUnsupported =
  'the modern test engines (chDB 26.7 and 26.9, clickhouse-local) refuse ON CLUSTER (392 "Replicated DDL queries are disabled") and never activate a ReplicatedMergeTree replica (242 TABLE_IS_READ_ONLY)'
