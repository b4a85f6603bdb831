import { defaultUsers } from './server-config.js'
import type { ClickHouseServer, ServerInfo } from './server-info.js'

/** The image used when no local binary exists but a Docker engine does. */
export const dockerImage = process.env.CLICKHOUSE_DOCKER_IMAGE ?? 'clickhouse/clickhouse-server:25.8'

/**
 * Starts a modern server in Docker through testcontainers' ClickHouse module, and creates
 * the same password and readonly accounts that local servers have, with SQL.
 */
export async function startDockerClickHouse(): Promise<ClickHouseServer> {
  const { ClickHouseContainer } = await import('@testcontainers/clickhouse')
  const container = await new ClickHouseContainer(dockerImage)
    .withUsername('default')
    .withPassword('')
    .start()
  const host = container.getHost()
  const tcp = container.getMappedPort(9000)
  const http = container.getMappedPort(8123)
  const httpUrl = `http://${host}:${http}`
  const run = async (query: string) => {
    const response = await fetch(`${httpUrl}/?user=default`, { method: 'POST', body: query })
    if (!response.ok) throw new Error(`${query}: ${await response.text()}`)
  }
  const { password, readonly } = defaultUsers
  await run(
    `CREATE USER IF NOT EXISTS ${password.user} IDENTIFIED WITH plaintext_password BY '${password.password}'`,
  )
  await run(`GRANT ALL ON *.* TO ${password.user} WITH GRANT OPTION`)
  await run(
    `CREATE USER IF NOT EXISTS ${readonly.user} IDENTIFIED WITH plaintext_password BY '${readonly.password}' SETTINGS readonly = 1`,
  )
  await run(`GRANT SELECT ON *.* TO ${readonly.user}`)
  const info: ServerInfo = {
    source: 'docker',
    host,
    ports: { tcp, http, interserverHttp: 0 },
    nativeUrl: `clickhouse://${host}:${tcp}`,
    httpUrl,
    users: defaultUsers,
    hasTestUsers: true,
    version: '',
    generation: 'modern',
    line: '',
  }
  let stopped: Promise<void> | undefined
  const server: ClickHouseServer = {
    ...info,
    pid: undefined,
    nodes: [],
    info: () => ({ ...info, version: server.version, generation: server.generation, line: server.line }),
    kill: () => Promise.reject(new Error('killing a Docker server is not supported by the harness')),
    onUnexpectedExit: () => () => {},
    restart: () => Promise.reject(new Error('restarting a Docker server is not supported by the harness')),
    stop() {
      stopped ??= container.stop().then(() => undefined)
      return stopped
    },
    [Symbol.asyncDispose]: () => server.stop(),
  }
  return server
}
