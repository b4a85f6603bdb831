// The node:http backend against local HTTP servers that misbehave on purpose: what the
// ClickHouse suites cannot make happen (a body cut mid-chunk, a server that answers before
// the request body ended, a slow producer, a short Keep-Alive hint).
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { httpAgentBackend } from './http-agent-backend-node.js'
import { type BackendFailure, type HttpBackend, isBackendFailure } from './http-backend.js'
import { type HttpTransportOptions, resolveOptions } from './http-options.js'

const servers: Server[] = []
const backends: HttpBackend[] = []

afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.close()))
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    server.close()
  }
})

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; sockets: Set<Socket> }> {
  const server = createServer(handler)
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => sockets.add(socket))
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, sockets }
}

function backendFor(url: string, options: Partial<HttpTransportOptions> = {}): HttpBackend {
  const backend = httpAgentBackend(resolveOptions({ url, ...options }))
  backends.push(backend)
  return backend
}

const send = (backend: HttpBackend, url: string, extra: Partial<Parameters<HttpBackend['send']>[0]> = {}) =>
  backend.send({
    url,
    method: 'POST',
    headers: {},
    body: 'SELECT 1',
    signal: new AbortController().signal,
    receiveTimeoutMs: 5_000,
    ...extra,
  })

async function text(body: { read(): Promise<Uint8Array | undefined> }): Promise<string> {
  let all = ''
  for (let chunk = await body.read(); chunk; chunk = await body.read()) all += Buffer.from(chunk).toString()
  return all
}

describe('httpAgentBackend', () => {
  it('reads a body, and sends the next request on the same kept-alive socket', async () => {
    const { url, sockets } = await serve((request, response) => {
      request.resume()
      request.on('end', () => response.end(`answer ${request.headers['content-length']}`))
    })
    const backend = backendFor(url)
    const first = await send(backend, url)
    expect(first.status).toBe(200)
    expect(await text(first.body)).toBe('answer 8')
    const second = await send(backend, url, { body: new Uint8Array([1, 2, 3]) })
    expect(await text(second.body)).toBe('answer 3')
    expect(sockets.size).toBe(1)
  })

  it('closes a kept-alive socket keepAliveMarginMs before the server hint', async () => {
    const { url, sockets } = await serve((request, response) => {
      request.resume()
      response.setHeader('Keep-Alive', 'timeout=1')
      response.end('x')
    })
    // A 1 s hint with the default 1 s margin leaves nothing: the socket is not kept.
    const backend = backendFor(url)
    await text((await send(backend, url)).body)
    await text((await send(backend, url)).body)
    expect(sockets.size).toBe(2)
    // A margin below zero keeps it past the hint, up to idleTimeoutMs: 30 s here (Node's own
    // rule, a fixed 1 s margin, would not keep it).
    const keeping = backendFor(url, { keepAliveMarginMs: -29_000, idleTimeoutMs: 30_000 })
    await text((await send(keeping, url)).body)
    await text((await send(keeping, url)).body)
    expect(sockets.size).toBe(3)
  })

  it('a body cut inside a chunk fails as a body failure, after the bytes that came', async () => {
    const { url } = await serve((request, response) => {
      request.resume()
      response.writeHead(200)
      response.write('partial')
      setTimeout(() => response.socket?.destroy(), 20)
    })
    const response = await send(backendFor(url), url)
    expect(Buffer.from((await response.body.read())!).toString()).toBe('partial')
    const failure = await response.body.read().catch((error: unknown) => error)
    expect(isBackendFailure(failure)).toBe(true)
    expect((failure as BackendFailure).phase).toBe('body')
  })

  it('a receive timeout is an idle failure, and does not count the producer of the body', async () => {
    const { url } = await serve((request, response) => {
      let received = ''
      request.on('data', (chunk) => {
        received += chunk
      })
      // Answers the whole body, then stalls the next request for ever.
      request.on('end', () => (received === 'ab' ? response.end(received) : undefined))
    })
    const backend = backendFor(url)
    async function* slowProducer() {
      yield new TextEncoder().encode('a')
      await new Promise((resolve) => setTimeout(resolve, 600))
      yield new TextEncoder().encode('b')
    }
    // 600 ms spent by the producer, under a 300 ms receive timeout: the server never kept us waiting.
    const answered = await send(backend, url, { body: slowProducer(), receiveTimeoutMs: 300 })
    expect(await text(answered.body)).toBe('ab')
    const stalled = await send(backend, url, { receiveTimeoutMs: 300 }).catch((error: unknown) => error)
    expect(isBackendFailure(stalled)).toBe(true)
    expect(stalled).toMatchObject({ phase: 'before-response', timeout: 'idle' })
  })

  it('an answer before the request body ended leaves that socket out of the pool', async () => {
    const { url, sockets } = await serve((request, response) => {
      if (request.headers['transfer-encoding'] === 'chunked') {
        response.statusCode = 500
        response.end('Code: 27. DB::Exception: cannot parse')
        return
      }
      request.resume()
      request.on('end', () => response.end('ok'))
    })
    const backend = backendFor(url)
    const never = new Promise<void>(() => {})
    async function* endless() {
      yield new TextEncoder().encode('row')
      await never
    }
    const refused = await send(backend, url, { body: endless() })
    expect(refused.status).toBe(500)
    expect(await text(refused.body)).toBe('Code: 27. DB::Exception: cannot parse')
    expect(await text((await send(backend, url)).body)).toBe('ok')
    expect(sockets.size).toBe(2)
  })

  it('an abort settles at once with the abort reason, before and after the headers', async () => {
    const { url } = await serve((request, response) => {
      request.resume()
      if (request.url === '/slow') return
      response.writeHead(200)
      response.write('first')
    })
    const backend = backendFor(url)
    const before = new AbortController()
    const pending = send(backend, `${url}slow`, { signal: before.signal })
    setTimeout(() => before.abort(new Error('stop')), 50)
    const beforeError = await pending.catch((error: unknown) => error)
    expect(beforeError).toMatchObject({ phase: 'before-response' })
    expect(((beforeError as BackendFailure).cause as Error).message).toBe('stop')

    const after = new AbortController()
    const response = await send(backend, url, { signal: after.signal })
    expect(Buffer.from((await response.body.read())!).toString()).toBe('first')
    after.abort(new Error('enough'))
    const afterError = await response.body.read().catch((error: unknown) => error)
    expect(afterError).toMatchObject({ phase: 'body' })
    expect(((afterError as BackendFailure).cause as Error).message).toBe('enough')
  })

  it('refuses requests once closed', async () => {
    const { url } = await serve((_request, response) => response.end())
    const backend = backendFor(url)
    await backend.close()
    const error = await send(backend, url).catch((e: unknown) => e)
    expect(error).toMatchObject({ phase: 'before-response' })
  })
})
