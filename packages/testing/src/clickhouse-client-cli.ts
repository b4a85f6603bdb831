import { execFile } from 'node:child_process'
import { findClientCommand } from './server-binary.js'
import type { ServerInfo } from './server-info.js'

export interface ClientCliOptions {
  user?: string
  password?: string
  database?: string
  /** Bytes for the query's stdin, e.g. the data of an INSERT. */
  input?: string | Uint8Array
  /** Extra arguments, e.g. `['--format', 'JSONEachRow']`. */
  args?: string[]
  timeoutMs?: number
}

/**
 * Runs one query through the C++ `clickhouse-client` against a test server and returns
 * its stdout. Tests use it as an oracle that shares no code with clickwire.
 */
export async function clickhouseClient(
  server: ServerInfo,
  query: string,
  options: ClientCliOptions = {},
): Promise<string> {
  const command = findClientCommand()
  if (!command) throw new Error('clickhouse-client is not installed (scripts/install-clickhouse.sh)')
  const args = [
    ...command.args,
    '--host',
    server.host,
    '--port',
    String(server.ports.tcp),
    '--user',
    options.user ?? server.users.default.user,
    '--query',
    query,
    ...(options.database ? ['--database', options.database] : []),
    ...(options.args ?? []),
  ]
  const password = options.password ?? server.users.default.password
  if (password) args.push('--password', password)
  return new Promise((resolve, reject) => {
    const child = execFile(
      command.file,
      args,
      { maxBuffer: 1 << 30, timeout: options.timeoutMs ?? 60_000, encoding: 'buffer' },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`clickhouse-client failed: ${stderr.toString('utf8').trim() || error.message}`))
        } else resolve(stdout.toString('utf8'))
      },
    )
    if (options.input !== undefined) child.stdin?.end(options.input)
    else child.stdin?.end()
  })
}
