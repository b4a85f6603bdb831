import { defaultUsers } from './server-config.js'
import type { ClickHouseServer, ServerInfo } from './server-info.js'

const defaultPorts = { 'clickhouse:': 9000, 'clickhouses:': 9440, 'http:': 8123, 'https:': 8443 } as const

/**
 * An existing server named by `CLICKHOUSE_URL`. One URL gives both transports: the other
 * one is assumed on its default port on the same host, unless `CLICKHOUSE_NATIVE_URL` or
 * `CLICKHOUSE_HTTP_URL` say otherwise. Credentials in the URL become the default user.
 * The test accounts (password, readonly) are not assumed to exist there.
 */
export function externalServer(url: string, env: NodeJS.ProcessEnv = process.env): ClickHouseServer {
  const parsed = new URL(url)
  const protocol = parsed.protocol as keyof typeof defaultPorts
  if (!(protocol in defaultPorts)) {
    throw new Error(
      `CLICKHOUSE_URL must start with clickhouse://, clickhouses://, http:// or https://, got ${protocol}`,
    )
  }
  const host = parsed.hostname
  const port = parsed.port ? Number(parsed.port) : defaultPorts[protocol]
  const native = protocol === 'clickhouse:' || protocol === 'clickhouses:'
  const nativeUrl =
    env.CLICKHOUSE_NATIVE_URL ?? (native ? `${protocol}//${parsed.host}` : `clickhouse://${host}:9000`)
  const httpUrl = env.CLICKHOUSE_HTTP_URL ?? (native ? `http://${host}:8123` : `${protocol}//${parsed.host}`)
  const user = decodeURIComponent(parsed.username) || 'default'
  const password = decodeURIComponent(parsed.password)
  const info: ServerInfo = {
    source: 'external',
    host,
    ports: {
      tcp: native ? port : Number(new URL(nativeUrl).port || 9000),
      http: native ? Number(new URL(httpUrl).port || 8123) : port,
      interserverHttp: 0,
    },
    nativeUrl,
    httpUrl,
    users: { ...defaultUsers, default: { user, password } },
    hasTestUsers: false,
    version: '',
    generation: 'modern',
    line: '',
  }
  const server: ClickHouseServer = {
    ...info,
    pid: undefined,
    nodes: [],
    info: () => ({ ...info, version: server.version, generation: server.generation, line: server.line }),
    kill: () => Promise.reject(new Error('an external server (CLICKHOUSE_URL) cannot be killed by tests')),
    onUnexpectedExit: () => () => {},
    restart: () =>
      Promise.reject(new Error('an external server (CLICKHOUSE_URL) cannot be restarted by tests')),
    stop: () => Promise.resolve(),
    [Symbol.asyncDispose]: () => Promise.resolve(),
  }
  return server
}
