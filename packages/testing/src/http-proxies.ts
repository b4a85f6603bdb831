import { createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { connect, createServer as createTcpServer, type Socket } from 'node:net'

/** A proxy listening on loopback for one test. */
export interface TestProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  close(): Promise<void>
}

export interface ForkProxyOptions {
  /** The real server, `http://host:port`. */
  readonly target: string
  /** The fork's header prefix, e.g. `X-Datastore-`. */
  readonly prefix: string
  /**
   * Headers a modern server would send and 18.16 does not, added (under the fork's prefix)
   * to every answer: `Query-Id` echoes the request's `query_id`; `Summary` and `Progress`
   * carry the JSON given here.
   */
  readonly summary?: Record<string, string> | undefined
  readonly progress?: Record<string, string> | undefined
  /** The query id the fork reports for the one the client sent (default the same). */
  readonly reportQueryId?: ((sent: string) => string) | undefined
}

export interface ForkProxy extends TestProxy {
  /** Requests refused because they carried an `X-ClickHouse-*` header. */
  readonly refused: number
  /** Header names of the requests that were let through, lower case. */
  readonly seenHeaders: readonly string[][]
}

/**
 * Stands in for a ClickHouse fork that renamed its headers (as `X-Datastore-*`): requests
 * with any `X-ClickHouse-*` header get 401; the fork's headers are renamed to
 * `X-ClickHouse-*` towards the real server, and the server's back to the fork's prefix.
 */
export async function startForkProxy(options: ForkProxyOptions): Promise<ForkProxy> {
  const target = new URL(options.target)
  const fork = options.prefix.toLowerCase()
  const upstream = 'x-clickhouse-'
  let refused = 0
  const seenHeaders: string[][] = []
  const server = createHttpServer((request, response) => {
    const names = Object.keys(request.headers)
    if (names.some((name) => name.startsWith(upstream))) {
      refused++
      request.resume()
      response.writeHead(401, { 'content-type': 'text/plain' })
      response.end(`this server does not accept ${upstream}* headers\n`)
      return
    }
    seenHeaders.push(names)
    const headers: IncomingHttpHeaders = {}
    for (const [name, value] of Object.entries(request.headers)) {
      headers[name.startsWith(fork) ? upstream + name.slice(fork.length) : name] = value
    }
    headers.host = target.host
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers },
      (answer) => {
        const back: Record<string, string | string[]> = {}
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value === undefined) continue
          back[name.startsWith(upstream) ? fork + name.slice(upstream.length) : name] = value
        }
        const queryId = new URL(request.url ?? '/', 'http://x').searchParams.get('query_id')
        if (queryId && back[`${fork}query-id`] === undefined) {
          back[`${fork}query-id`] = options.reportQueryId ? options.reportQueryId(queryId) : queryId
        }
        if (options.progress) back[`${fork}progress`] = JSON.stringify(options.progress)
        if (options.summary) back[`${fork}summary`] = JSON.stringify(options.summary)
        response.writeHead(answer.statusCode ?? 502, back)
        answer.pipe(response)
      },
    )
    forwarded.on('error', (error) => {
      response.destroy(error)
    })
    request.pipe(forwarded)
  })
  server.keepAliveTimeout = 2000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('the fork proxy has no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    get refused() {
      return refused
    },
    seenHeaders,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface StaleSocketProxy extends TestProxy {
  /** From now on, the next `count` requests that arrive on a reused connection are reset. */
  arm(count?: number): void
  /** Requests reset so far. */
  readonly resets: number
  /** Client connections accepted so far. */
  readonly connections: number
}

/**
 * A TCP proxy that plays a server closing a kept-alive socket just as the client reuses
 * it: once armed, a request that arrives on a connection that already carried an answer is
 * answered with a TCP reset before any byte of a response. Fresh connections pass.
 */
export async function startStaleSocketProxy(target: string): Promise<StaleSocketProxy> {
  const url = new URL(target)
  let armed = 0
  let resets = 0
  let connections = 0
  const sockets = new Set<Socket>()
  const server = createTcpServer((client) => {
    connections++
    sockets.add(client)
    const server = connect(Number(url.port), url.hostname)
    sockets.add(server)
    let answered = false
    client.on('data', (chunk) => {
      if (answered && armed > 0) {
        armed--
        resets++
        server.destroy()
        client.resetAndDestroy()
        return
      }
      server.write(chunk)
    })
    server.on('data', (chunk) => {
      answered = true
      client.write(chunk)
    })
    const end = () => {
      client.destroy()
      server.destroy()
      sockets.delete(client)
      sockets.delete(server)
    }
    client.on('close', end)
    server.on('close', end)
    client.on('error', end)
    server.on('error', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('the proxy has no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    arm(count = 1) {
      armed = count
    },
    get resets() {
      return resets
    },
    get connections() {
      return connections
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
