import type { Buffer } from 'node:buffer'
import { Readable } from 'node:stream'
import type { ConnectionOptions } from 'node:tls'
import { createGunzip, createInflate } from 'node:zlib'
import type { Pool } from 'undici'
import { BodyQueue } from './body-queue.js'
import {
  type BackendRequest,
  type BackendResponse,
  type BodyReader,
  backendFailure,
  errorCode,
  type HttpBackend,
  headersFrom,
} from './http-backend.js'
import type { HttpTransportOptions, ResolvedOptions } from './http-options.js'
import { ReadSlab, slabReads } from './socket-reads-node.js'

type Controller = { pause(): void; resume(): void; abort(reason: unknown): void; readonly aborted: boolean }

/**
 * The Node backend: one undici Pool per transport (keep-alive, at most
 * `maxConnections` sockets; two more, apart, for the requests `aside`), driven through `dispatch` with a handler of our own, so
 * response chunks go straight from the HTTP parser into the body queue with no stream
 * machinery per chunk. The queue pauses the socket while more than `highWaterMark` bytes
 * wait unread.
 *
 * Kept-alive sockets: undici closes an idle socket after `idleTimeoutMs`, or before the
 * server's own `Keep-Alive: timeout=N` hint by `keepAliveMarginMs`, so that a request
 * rarely meets a socket the server is closing; the transport retries the rest.
 */
export function undiciBackend(options: ResolvedOptions, tls?: HttpTransportOptions['tls']): HttpBackend {
  const origin = options.base.origin
  let pool: Promise<Pool> | undefined
  let aside: Promise<Pool> | undefined
  const ready = () =>
    (pool ??= loadUndici().then(({ Pool }) => createPool(Pool, origin, options, tls, options.maxConnections)))
  // Requests made while results may hold every pooled socket (a DESCRIBE for result
  // metadata) get sockets of their own, opened on first use: in the main pool they could
  // wait for ever behind results left unread.
  const readyAside = () =>
    (aside ??= loadUndici().then(({ Pool }) => createPool(Pool, origin, options, tls, asideConnections)))

  let lastSend = Number.NEGATIVE_INFINITY
  return {
    name: 'undici',
    async send(request: BackendRequest): Promise<BackendResponse> {
      const dispatcher = await (request.aside ? readyAside() : ready())
      // After a quiet stretch, a full turn of the event loop first, so that a server's close
      // of an idle kept-alive socket is read, and undici's idle timer has fired, before undici
      // picks a socket. A long synchronous stretch (decoding a large result) holds both back:
      // the request would go out on a socket the server has closed ("other side closed"),
      // and only a read-only request may be sent again after that, not an insert or a DDL.
      // Busy callers (a request within the last half second) never wait: nothing blocked.
      if (performance.now() - lastSend > quietMs) await loopTurn()
      lastSend = performance.now()
      return dispatch(dispatcher, origin, options, request)
    },
    async close() {
      await Promise.all([pool, aside].map(async (opened) => (await opened)?.close()))
    },
  }
}

/** How long without a request before the next one first lets the event loop turn. */
const quietMs = 500

/**
 * Resolves after a whole turn of the event loop: the timers that are due have run (undici's
 * idle-socket timer among them) and then the poll phase has read the I/O that arrived.
 */
const loopTurn = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(() => setImmediate(resolve), 0)
  })

/** Sockets for the requests aside: each is read to its end at once, so few serve many. */
const asideConnections = 2

let undici: Promise<typeof import('undici')> | undefined

/** undici loads on the first request: a Node process that only speaks native TCP never pays its import (~120 ms). */
function loadUndici(): Promise<typeof import('undici')> {
  undici ??= import('undici')
  return undici
}

function createPool(
  PoolClass: typeof Pool,
  origin: string,
  options: ResolvedOptions,
  tls: HttpTransportOptions['tls'],
  connections: number,
): Pool {
  return new PoolClass(origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: Math.max(1, options.idleTimeoutMs),
    keepAliveMaxTimeout: Math.max(1, options.idleTimeoutMs),
    keepAliveTimeoutThreshold: options.keepAliveMarginMs,
    connect: {
      timeout: options.connectTimeoutMs || undefined,
      // Plain TCP reads land in large slabs (socket-reads-node.ts); TLS sockets have no onread.
      ...(origin.startsWith('http:') ? slabReads(new ReadSlab()) : {}),
      ...(tls
        ? {
            // Node's TLS takes any Uint8Array where its types say Buffer (PemInput).
            ca: tls.ca as ConnectionOptions['ca'],
            cert: tls.cert as ConnectionOptions['cert'],
            key: tls.key as ConnectionOptions['key'],
            rejectUnauthorized: tls.rejectUnauthorized,
            servername: tls.servername,
          }
        : {}),
    },
  })
}

function dispatch(
  pool: Pool,
  origin: string,
  options: ResolvedOptions,
  request: BackendRequest,
): Promise<BackendResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(request.url)
    let controller: Controller | undefined
    let responded = false
    let queue: BodyQueue | undefined
    const abortReason = () => request.signal.reason ?? new Error('aborted')
    const onAbort = () => controller?.abort(abortReason())
    request.signal.addEventListener('abort', onAbort, { once: true })
    const done = () => request.signal.removeEventListener('abort', onAbort)

    const fail = (error: unknown) => {
      done()
      const code = errorCode(error)
      const timeout =
        code === 'UND_ERR_CONNECT_TIMEOUT'
          ? 'connect'
          : code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
            ? 'idle'
            : undefined
      if (!responded) reject(backendFailure('before-response', error, { timeout }))
      else queue?.fail(backendFailure('body', error, { timeout }))
    }

    pool.dispatch(
      {
        origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers,
        body: request.body as never,
        headersTimeout: request.receiveTimeoutMs,
        bodyTimeout: request.receiveTimeoutMs,
        // A streamed body can be read only once: never let undici resend it.
        idempotent: typeof request.body !== 'object' || request.body instanceof Uint8Array,
      },
      {
        onRequestStart(started: Controller) {
          controller = started
          if (request.signal.aborted) started.abort(abortReason())
        },
        onResponseStart(started: Controller, statusCode: number, headers: Record<string, string | string[]>) {
          if (statusCode < 200) return
          responded = true
          const flow = {
            pause: () => started.pause(),
            resume: () => started.resume(),
            cancel: (reason: unknown) => {
              if (!started.aborted) started.abort(reason ?? new Error('cancelled'))
            },
          }
          queue = new BodyQueue(flow, options.highWaterMark)
          const responseHeaders = headersFrom(headers)
          const encoding = responseHeaders.get('content-encoding')?.trim().toLowerCase()
          resolve({
            status: statusCode,
            headers: responseHeaders,
            body: encoding === 'gzip' || encoding === 'deflate' ? decompressed(queue, encoding) : queue,
          })
        },
        onResponseData(_controller: Controller, chunk: Uint8Array) {
          queue?.push(chunk)
        },
        onResponseEnd() {
          done()
          queue?.end()
        },
        onResponseError(_controller: Controller, error: Error) {
          fail(error)
        },
      } as never,
    )
  })
}

/**
 * An HTTP-compressed body, inflated with node:zlib as it is read.
 *
 * A body that breaks off is inflated to its last byte before the break is reported: 25.x+
 * servers end a response whose query failed late by writing the exception into the
 * compressed stream and closing the connection without the last chunk, so the exception
 * text sits in the bytes just before the break (and often in a gzip member that is whole).
 */
function decompressed(body: BodyReader, encoding: 'gzip' | 'deflate'): BodyReader {
  let failure: { error: unknown } | undefined
  const source = Readable.from(
    (async function* () {
      for (;;) {
        let chunk: Uint8Array | undefined
        try {
          chunk = await body.read()
        } catch (error) {
          failure = { error }
          return
        }
        if (chunk === undefined) return
        yield chunk
      }
    })(),
    { objectMode: false },
  )
  const inflate = encoding === 'gzip' ? createGunzip() : createInflate()
  source.on('error', (error) => inflate.destroy(error))
  source.pipe(inflate)
  const iterator = inflate[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const bodyFailure = (error: unknown) =>
    error && typeof error === 'object' && 'phase' in error ? error : backendFailure('body', error)
  return {
    async read() {
      let step: IteratorResult<Buffer>
      try {
        step = await iterator.next()
      } catch (error) {
        // A stream cut inside a gzip member also fails to inflate; the break is the cause.
        throw bodyFailure(failure ? failure.error : error)
      }
      if (!step.done) return new Uint8Array(step.value.buffer, step.value.byteOffset, step.value.length)
      if (failure) throw bodyFailure(failure.error)
      return undefined
    },
    cancel(reason) {
      body.cancel(reason)
      inflate.destroy()
    },
  }
}
