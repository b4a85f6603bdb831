import { type Client, type ClientOptions, createClient } from '@clickwire/client'
import { type Fault, FaultProxy, type FaultProxyOptions, type ServerInfo } from '@clickwire/testing'

/** Both transports: every reliability case runs on each. */
export const transports = ['native', 'http'] as const
export type TransportName = (typeof transports)[number]

/** The server port a transport talks to. */
export function serverPort(server: ServerInfo, transport: TransportName): number {
  return transport === 'native' ? server.ports.tcp : server.ports.http
}

/**
 * A client URL for `transport` on `host:port`, with credentials in it (the secret tests
 * rely on them being there: a URL is the easiest place for a password to leak from).
 */
export function urlWithCredentials(
  transport: TransportName,
  port: number,
  credentials: { user: string; password: string },
  host = '127.0.0.1',
): string {
  const scheme = transport === 'native' ? 'clickhouse' : 'http'
  const auth = `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}`
  return `${scheme}://${auth}@${host}:${port}${transport === 'native' ? '/default' : ''}`
}

/**
 * How a proxy in front of `server` resets. The modern engine aborts the whole process when a
 * connection it reads from gets an RST (native: an idle pooled connection; HTTP: a request
 * body cut short), see `modernHandshakeAbort`; so there the proxy closes the server's side
 * with a FIN instead. The client still gets the RST: what the client sees is the same.
 */
export function proxyOptions(server: ServerInfo, _transport: TransportName): FaultProxyOptions {
  return { resetServer: server.generation !== 'modern' }
}

/** A client through a fresh FaultProxy in front of the shared server. */
export interface ProxiedClient {
  readonly proxy: FaultProxy
  readonly client: Client
  close(): Promise<void>
}

/**
 * Starts a FaultProxy in front of the server's port for `transport` (with `fault` already
 * set, so it applies from the very first connection: handshakes and server detection are
 * exposed like everything else) and a client pointed at it with the password user (the
 * default user on a server without the harness's accounts).
 */
export async function proxiedClient(
  server: ServerInfo,
  transport: TransportName,
  fault: Fault,
  options: Omit<ClientOptions, 'url'> = {},
): Promise<ProxiedClient> {
  const proxy = await FaultProxy.start(
    { host: server.host, port: serverPort(server, transport) },
    fault,
    proxyOptions(server, transport),
  )
  const client = createClient({
    url: urlWithCredentials(
      transport,
      proxy.port,
      server.hasTestUsers ? server.users.password : server.users.default,
    ),
    ...options,
  })
  return {
    proxy,
    client,
    close: async () => {
      await client.close()
      await proxy.close()
    },
  }
}
