// The Node entry's files take Node's types; the universal ones are built without them (tsconfig.build.json).
/// <reference types="node" />
import type { Agent, ClientRequest, IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionOptions } from 'node:tls'
import type { TlsOptions } from '@clickwire/protocol'
import { BodyQueue } from './body-queue.js'
import {
  type BackendRequest,
  type BackendResponse,
  backendFailure,
  type HttpBackend,
  headersFrom,
} from './http-backend.js'
import type { ResolvedOptions } from './http-options.js'
import { decompressed } from './inflate-body-node.js'
import { sendGate } from './send-gate-node.js'
import { ReadSlab, slabReads } from './socket-reads-node.js'

type HttpModule = Pick<typeof import('node:http'), 'Agent' | 'request'>

/** Sockets for the requests aside: each is read to its end at once, so few serve many. */
const asideConnections = 2

/**
 * The Node backend: Node's own `node:http` / `node:https` with a kept-alive Agent per
 * transport (at most `maxConnections` sockets; two more, apart, for the requests `aside`).
 * It needs no dependency, and plain-TCP sockets read into large slabs (socket-reads-node.ts),
 * so a body chunk is a view of bytes the kernel wrote, not a fresh allocation per read.
 *
 * Response chunks go from the socket's `data` events into a {@link BodyQueue}, which pauses
 * the response while more than `highWaterMark` bytes wait unread. The receive timeout counts
 * only time spent waiting on the server: not while the request body waits on its producer,
 * nor while the reader has paused the response.
 *
 * Kept-alive sockets are closed after `idleTimeoutMs` unused, or `keepAliveMarginMs` before
 * the server's own `Keep-Alive: timeout=N` hint, so that a request rarely meets a socket the
 * server is closing; the transport retries the rest.
 */
export function httpAgentBackend(options: ResolvedOptions, tls?: TlsOptions): HttpBackend {
  const secure = options.base.protocol === 'https:'
  // The modules load on the first request (node:https brings node:tls): a process that only
  // speaks native TCP, or plain HTTP, never pays for them.
  let loaded: Promise<{ module: HttpModule; main: Agent; aside: Agent }> | undefined
  const ready = () =>
    (loaded ??= (secure ? import('node:https') : import('node:http')).then((module) => ({
      module,
      main: keptAliveAgent(module.Agent, options, tls, secure, options.maxConnections),
      // Requests made while results may hold every pooled socket (a DESCRIBE for result
      // metadata) get sockets of their own: in the main pool they could wait for ever
      // behind results left unread.
      aside: keptAliveAgent(module.Agent, options, tls, secure, asideConnections),
    })))
  const gate = sendGate()
  let closed = false
  return {
    name: 'node:http',
    async send(request: BackendRequest): Promise<BackendResponse> {
      if (closed) throw backendFailure('before-response', new Error('the HTTP backend is closed'))
      const { module, main, aside } = await ready()
      await gate()
      return exchange(module, request.aside ? aside : main, options, request)
    },
    async close() {
      closed = true
      const opened = await loaded
      opened?.main.destroy()
      opened?.aside.destroy()
    },
  }
}

/** The server's `Keep-Alive: timeout=N` of the last response on each socket, in ms. */
const serverKeepAlive = new WeakMap<Socket, number>()

function keptAliveAgent(
  Base: typeof Agent,
  options: ResolvedOptions,
  tls: TlsOptions | undefined,
  secure: boolean,
  connections: number,
): Agent {
  class KeptAliveAgent extends Base {
    /**
     * Called when a response ended and its socket may go back to the pool: how long it may
     * wait there (Node's own rule keeps a fixed 1 s margin; ours is the option).
     */
    override keepSocketAlive(socket: Socket): boolean {
      const hint = serverKeepAlive.get(socket)
      const keepMs = Math.min(
        options.idleTimeoutMs,
        hint === undefined ? Infinity : hint - options.keepAliveMarginMs,
      )
      if (!(keepMs >= 1)) return false
      socket.setKeepAlive(true, 1000)
      socket.unref()
      // A free socket that times out is destroyed by the Agent's own timeout listener.
      socket.setTimeout(keepMs)
      return true
    }

    override reuseSocket(socket: Socket, request: ClientRequest): void {
      socket.setTimeout(0)
      super.reuseSocket(socket, request)
    }
  }
  return new KeptAliveAgent({
    keepAlive: true,
    maxSockets: connections,
    maxFreeSockets: connections,
    scheduling: 'lifo',
    // Passed on to net.connect / tls.connect for each new socket.
    ...(secure
      ? {
          // Node's TLS takes any Uint8Array where its types say Buffer (PemInput).
          ca: tls?.ca as ConnectionOptions['ca'],
          cert: tls?.cert as ConnectionOptions['cert'],
          key: tls?.key as ConnectionOptions['key'],
          rejectUnauthorized: tls?.rejectUnauthorized,
          servername: tls?.servername,
        }
      : // TLS sockets read through their own layer, with no `onread`.
        slabReads(new ReadSlab())),
  } as ConstructorParameters<typeof Agent>[0])
}

/**
 * A timer for one limit of a request. It runs only while the request waits on the server,
 * and calls `fire` once when it runs out.
 */
class RequestTimer {
  private timer: ReturnType<typeof setTimeout> | undefined
  fired = false

  constructor(
    private readonly ms: number,
    private readonly fire: () => void,
  ) {}

  touch(): void {
    if (this.ms <= 0 || this.fired) return
    if (this.timer !== undefined) this.timer.refresh()
    else
      this.timer = setTimeout(() => {
        this.timer = undefined
        this.fired = true
        this.fire()
      }, this.ms)
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }
}

function exchange(
  module: HttpModule,
  agent: Agent,
  options: ResolvedOptions,
  request: BackendRequest,
): Promise<BackendResponse> {
  return new Promise((resolve, reject) => {
    let responded = false
    let finished = false
    let queue: BodyQueue | undefined
    let timeout: 'connect' | 'idle' | undefined
    const req = module.request(request.url, { agent, method: request.method, headers: request.headers })

    // An abort or a timeout settles the exchange at once, then destroys the request: the
    // error is the one of that moment (an insert's rows sent so far), not of the later
    // moment Node reports the destroyed socket at.
    const stop = (error: Error) => {
      fail(error)
      req.destroy(error)
    }
    const connectTimer = new RequestTimer(options.connectTimeoutMs, () => {
      timeout = 'connect'
      stop(new Error(`no connection to ${options.base.host} within ${options.connectTimeoutMs} ms`))
    })
    const idleTimer = new RequestTimer(request.receiveTimeoutMs, () => {
      timeout = 'idle'
      stop(new Error(`no data for ${request.receiveTimeoutMs} ms`))
    })
    const onAbort = () => stop((request.signal.reason as Error | undefined) ?? new Error('aborted'))
    const done = () => {
      finished = true
      connectTimer.stop()
      idleTimer.stop()
      request.signal.removeEventListener('abort', onAbort)
    }
    const fail = (error: unknown) => {
      if (finished) return
      done()
      if (!responded) reject(backendFailure('before-response', error, { timeout }))
      else queue?.fail(backendFailure('body', error, { timeout }))
    }

    req.on('error', fail)
    req.on('socket', (socket: Socket) => {
      // A reused socket is connected; a new one counts from here to its TLS handshake's end.
      if (req.reusedSocket) return
      connectTimer.touch()
      socket.once('encrypted' in socket ? 'secureConnect' : 'connect', () => connectTimer.stop())
    })
    req.on('finish', () => idleTimer.touch())
    req.on('response', (res: IncomingMessage) => {
      responded = true
      connectTimer.stop()
      idleTimer.touch()
      const hint = /\btimeout=(\d+)/.exec(String(res.headers['keep-alive'] ?? ''))
      if (res.socket) {
        if (hint) serverKeepAlive.set(res.socket, Number(hint[1]) * 1000)
        else serverKeepAlive.delete(res.socket)
      }
      const flow = {
        pause: () => {
          idleTimer.stop()
          res.pause()
        },
        resume: () => {
          idleTimer.touch()
          res.resume()
        },
        cancel: (reason: unknown) => {
          if (!finished) stop((reason as Error | undefined) ?? new Error('cancelled'))
        },
      }
      const body = new BodyQueue(flow, options.highWaterMark)
      queue = body
      res.on('data', (chunk: Uint8Array) => {
        idleTimer.touch()
        body.push(chunk)
      })
      res.on('end', () => {
        done()
        body.end()
        // The server answered before the request body was all sent (an error): the socket
        // holds a request cut short, and must not go back to the pool.
        if (!req.writableFinished) req.destroy()
      })
      res.on('error', fail)
      res.on('close', () => {
        if (!res.complete)
          fail(
            Object.assign(new Error('the connection closed before the body ended'), { code: 'ECONNRESET' }),
          )
      })
      const encoding = String(res.headers['content-encoding'] ?? '')
        .trim()
        .toLowerCase()
      resolve({
        status: res.statusCode ?? 0,
        headers: headersFrom(res.headers),
        body: encoding === 'gzip' || encoding === 'deflate' ? decompressed(body, encoding) : body,
      })
    })

    if (request.signal.aborted) {
      onAbort()
      return
    }
    request.signal.addEventListener('abort', onAbort, { once: true })
    idleTimer.touch()
    const body = request.body
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
      // One write: Node sends it with a Content-Length.
      req.end(body)
      return
    }
    void pump(req, body, idleTimer, () => finished || responded || req.destroyed)
  })
}

/**
 * Writes a streamed request body (chunked), waiting for the socket to drain as it goes.
 * The receive timer is stopped while the producer works: that wait is ours, not the
 * server's. A producer that throws cuts the request with its error, so the server sees a
 * chunked body without its last chunk and stores nothing of it.
 */
async function pump(
  req: ClientRequest,
  body: AsyncIterable<Uint8Array>,
  idleTimer: RequestTimer,
  stopped: () => boolean,
): Promise<void> {
  const iterator = body[Symbol.asyncIterator]()
  let ended = false
  try {
    for (;;) {
      idleTimer.stop()
      const step = await iterator.next()
      if (step.done) {
        ended = true
        break
      }
      if (stopped()) return
      idleTimer.touch()
      if (!req.write(step.value)) await drained(req)
      if (stopped()) return
    }
    req.end()
  } catch (error) {
    ended = true
    req.destroy(error as Error)
  } finally {
    if (!ended) await Promise.resolve(iterator.return?.()).catch(() => {})
  }
}

/** Resolves once the request can take more bytes, or is gone. */
function drained(req: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      req.off('drain', settle)
      req.off('close', settle)
      resolve()
    }
    req.on('drain', settle)
    req.on('close', settle)
  })
}
