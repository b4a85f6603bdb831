import {
  AbortError,
  CallDeadline,
  ClickHouseError,
  ClickwireError,
  ConnectionError,
  decodeUtf8,
  newQueryId,
  permissionRefusal,
  quoteSqlString,
  type RepeatableRequest,
  shouldRetry,
  TimeoutError,
  UsageError,
} from '@clickwire/protocol'
import { ConnectionSlots } from './connection-slots.js'
import { serverError } from './exception-trailer.js'
import { type BackendBody, type BackendResponse, type HttpBackend, isBackendFailure } from './http-backend.js'
import { type Exchange, maxErrorBody, readAll, readExchange } from './http-exchange.js'
import type { ResolvedOptions } from './http-options.js'
import { buildRequest, type RequestParts } from './request-builder.js'

/** Failures on a socket the server may have closed while it sat idle in the pool. */
const staleSocketCodes = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ERR_SOCKET_CLOSED',
  'ECONNABORTED',
])

/** How one request is sent. */
export interface SendHow {
  /** The limits of the call the request belongs to. */
  readonly deadline: CallDeadline
  /**
   * What the request is, for the retry policy (protocol's retry-policy.ts), asked when an
   * attempt failed: an insert knows only then whether its rows had started.
   */
  readonly repeatable: () => RepeatableRequest
  readonly method?: 'GET' | 'POST' | undefined
  /** Whether a request that ends early may leave its query running, so it is killed by id (default true). */
  readonly kill?: boolean | undefined
  /**
   * A short request of the transport's own made while its call's result holds a slot (a
   * DESCRIBE for result metadata, KILL QUERY), read to the end at once: it takes no
   * connection slot (connection-slots.ts), so it never waits behind results. (The server
   * and frames probes do take one: they run before their call holds one.)
   */
  readonly background?: boolean | undefined
  /**
   * A KILL QUERY: close() waits for it, within its bound, instead of stopping it (stopped,
   * it would leave the query it is meant to end running on the server).
   */
  readonly outlivesClose?: boolean | undefined
  /**
   * Sent on a socket aside from the pool (see BackendRequest.aside): a DESCRIBE made while
   * its result still streams, when every pooled socket may be held by results left unread.
   * Not a KILL QUERY: the request it stops gives its own socket back.
   */
  readonly aside?: boolean | undefined
  /** Told of each attempt sent again (the call's `onRetry`). */
  readonly onRetry?: ((attempt: number, error: unknown) => void) | undefined
}

/** A request body, or a function that makes a fresh one for each attempt (a body streamed once). */
export type BodySource = BackendBody | undefined | (() => BackendBody)

/**
 * The lifetime of every HTTP request of a transport: its deadline and signal, stopping it
 * (and its query on the server, by `KILL QUERY` from another request), sending it again
 * after a stale kept-alive socket when the shared retry policy allows, mapping failures to
 * clickwire's errors, and close(): requests still running end with their call's error.
 */
/**
 * The most of a framed error body read (the server answers 500 only while its answer still
 * fits its send buffer, about 1 MiB; frames cannot be read from the end).
 */
const maxFramedErrorBody = 16 << 20

/** ClickHouse's SESSION_IS_LOCKED: another request of the session still runs on the server. */
const sessionIsLocked = 373

/** Whether `bytes` start with `Code: `, as a plain exception text does. */
function startsWithCode(bytes: Uint8Array): boolean {
  return bytes.length >= 6 && decodeUtf8(bytes.subarray(0, 6)) === 'Code: '
}

export class RequestSender {
  /** Requests sent again after a stale kept-alive socket failed them (each resend counts). */
  retries = 0
  /** How to stop each request in flight; close() stops them (and their queries on the server). */
  readonly #active = new Set<() => Promise<void>>()
  /** The connections the calls' exchanges hold, and the calls waiting for one. */
  readonly slots: ConnectionSlots
  /** Aborted when close() starts: calls waiting for shared work give up at once. */
  readonly #stopping = new AbortController()
  /** Aborted once closed: best-effort KILL QUERY requests still in flight give up then. */
  readonly #killing = new AbortController()
  /**
   * KILL QUERY requests still in flight, including those of calls that have already failed
   * with their timeout or abort: close() waits for them, or a client closed right after a
   * timeout would abort the KILL and leave the query running on the server.
   */
  readonly #kills = new Set<Promise<void>>()
  #closed = false

  constructor(
    private readonly options: ResolvedOptions,
    private readonly backend: HttpBackend,
    /** Decodes an error body that came in compressed frames (see unframeBody). */
    private readonly unframe: (bytes: Uint8Array) => Promise<Uint8Array> = async (bytes) => bytes,
  ) {
    this.slots = new ConnectionSlots(options.maxConnections, options.acquireTimeoutMs)
  }

  /** Fires when close() starts (see {@link CallDeadline.closing}). */
  get closing(): AbortSignal {
    return this.#stopping.signal
  }

  get closed(): boolean {
    return this.#closed
  }

  checkOpen(): void {
    if (this.#closed || this.#stopping.signal.aborted) throw new UsageError('the HTTP transport is closed')
  }

  /**
   * Sends one request and waits for its status and headers. A request that failed on a
   * stale kept-alive socket before any byte of the answer is sent again where the retry
   * policy allows, at most once per pooled socket. A status other than 200 becomes the
   * server's exception.
   */
  async send(parts: RequestParts, body: BodySource, how: SendHow): Promise<Exchange> {
    // Not checkOpen(): while close() stops the requests in flight, their KILLs still go out.
    if (this.#closed) throw new UsageError('the HTTP transport is closed')
    const { deadline } = how
    deadline.check()
    const { url, headers } = buildRequest(this.options, parts)
    // Held from here until the exchange settles: its body read to the end, cancelled or failed.
    const slot = { release: how.background ? undefined : await this.slots.acquire(deadline), hold: false }
    for (let delayMs = 20; ; delayMs = Math.min(delayMs * 2, 200)) {
      try {
        return await this.#attempt(parts, body, how, url, headers, slot)
      } catch (error) {
        if (!slot.hold) throw error
        // The session is still locked by a request that ended on our side but not yet on
        // the server (one stopped by its timeout or signal, whose KILL is on its way). The
        // server refused this one before running it: it waits its turn, keeping its slot so
        // the session's later calls stay behind it, within its own deadline.
        slot.hold = false
        try {
          await deadline.wait(new Promise((resolve) => setTimeout(resolve, delayMs)))
        } catch (stopped) {
          slot.release?.()
          throw stopped
        }
      }
    }
  }

  /** One attempt of {@link send}, in the slot it holds; `slot.hold` set when it is to be sent again. */
  async #attempt(
    parts: RequestParts,
    body: BodySource,
    how: SendHow,
    url: string,
    headers: Record<string, string>,
    slot: { readonly release: (() => void) | undefined; hold: boolean },
  ): Promise<Exchange> {
    const options = this.options
    const { deadline } = how
    const release = () => {
      if (!slot.hold) slot.release?.()
    }
    const controller = new AbortController()
    const method = how.method ?? 'POST'
    const kill = how.kill ?? true
    const queryId = parts.queryId
    let started = false
    let stopped = false

    const stop = async (reason: unknown): Promise<void> => {
      if (stopped) return
      stopped = true
      controller.abort(reason)
      if (kill && started) await this.#kill(queryId)
    }
    // close() ends it through #active, so that close() waits for the KILL QUERY.
    const stopOnClose = () => stop(deadline.errors.closed())
    const unwatch = deadline.watch((error) => void stop(error))
    const settle = () => {
      this.#active.delete(stopOnClose)
      unwatch()
      release()
    }
    if (!how.outlivesClose) this.#active.add(stopOnClose)

    let killed = false
    // The request failed under us (a receive timeout, a reset, a cut body) with the query
    // perhaps still running: the server notices a client that went away only when it next
    // writes, so it is killed by query id. Not when the connection was never made.
    const killAfterFailure = (cause: unknown) => {
      if (!kill || !started || killed || stopped || controller.signal.aborted) return
      if (!isBackendFailure(cause)) return
      if (cause.timeout === 'connect') return
      // A socket failure before any answer byte is what a stale kept-alive socket looks like
      // (the request most likely never reached the server): only a timeout there kills.
      if (cause.phase === 'before-response' && cause.timeout === undefined) return
      killed = true
      void this.#kill(queryId)
    }
    const mapError = (cause: unknown, detail: string): Error => {
      killAfterFailure(cause)
      if (controller.signal.aborted) {
        const reason: unknown = controller.signal.reason
        return reason instanceof Error ? reason : new AbortError(reason)
      }
      return this.#failure(cause, detail)
    }

    let response: BackendResponse | undefined
    try {
      started = true
      for (let attempts = 1; ; attempts++) {
        try {
          response = await this.backend.send({
            url,
            method,
            headers,
            body: typeof body === 'function' ? body() : body,
            signal: controller.signal,
            receiveTimeoutMs: options.receiveTimeoutMs,
            aside: how.aside,
          })
          break
        } catch (error) {
          const staleConnection =
            isBackendFailure(error) &&
            error.phase === 'before-response' &&
            error.timeout === undefined &&
            error.code !== undefined &&
            staleSocketCodes.has(error.code) &&
            !controller.signal.aborted &&
            !this.#stopping.signal.aborted
          const again = shouldRetry({
            staleConnection,
            request: how.repeatable(),
            attempts,
            pooledConnections: options.maxConnections,
          })
          if (!again) throw error
          this.retries++
          how.onRetry?.(attempts, error)
        }
      }
    } catch (error) {
      settle()
      // The caller's timeout or abort is reported now; stopping the query on the server is
      // best effort and must not hold the error back (on a stalled network it would wait
      // for the KILL request's own 10 s limit).
      if (controller.signal.aborted && kill) void this.#kill(queryId)
      throw mapError(error, `${method} ${options.base.host} failed`)
    }

    if (response.status !== 200) {
      try {
        let body = await readAll(response.body, parts.framedResponse ? maxFramedErrorBody : maxErrorBody)
        // Asked with compress=1, an error comes in frames too, the data before it included.
        if (parts.framedResponse && !startsWithCode(body)) body = await this.unframe(body)
        let text = decodeUtf8(body).trim()
        const at = parts.framedResponse ? text.lastIndexOf('Code: ') : -1
        if (at > 0) text = text.slice(at)
        const code = response.headers.get(`${options.headerPrefix}Exception-Code`)
        if (/^Code: \d+/.test(text) || code) {
          const error = serverError(text, queryId, Number(code ?? 0))
          // SESSION_IS_LOCKED: refused before it ran, so a body of text or bytes is sent
          // again (a streamed one may be partly read already).
          if (
            error.code === sessionIsLocked &&
            options.sessionId !== undefined &&
            parts.inSession !== false &&
            (typeof body === 'string' || body instanceof Uint8Array) &&
            !controller.signal.aborted
          )
            slot.hold = true
          throw error
        }
        throw (await import('./request-refusal.js')).refusedRequestError(
          response.status,
          text,
          options.base.host,
        )
      } catch (error) {
        if (ClickwireError.isInstance(error)) throw error
        throw mapError(error, `reading the error of HTTP ${response.status}`)
      } finally {
        settle()
      }
    }
    return { queryId, response, stop, bodyError: mapError, settle }
  }

  /** A backend failure (or anything else thrown) as clickwire's error. */
  #failure(cause: unknown, detail: string): Error {
    const options = this.options
    if (isBackendFailure(cause)) {
      if (cause.timeout === 'connect') {
        return new TimeoutError('connect', options.connectTimeoutMs, undefined, { cause: cause.cause })
      }
      if (cause.timeout === 'idle') {
        return new TimeoutError(
          'idle',
          options.receiveTimeoutMs,
          `no data from the server for ${options.receiveTimeoutMs} ms (${detail})`,
          { cause: cause.cause },
        )
      }
      if (ClickwireError.isInstance(cause.cause)) return cause.cause
      // Deno without --allow-net refuses the request: the caller's to fix, not a host down.
      const refused = permissionRefusal(cause.cause, detail)
      if (refused) return refused
      const message = (cause.cause as Error | undefined)?.message ?? String(cause.cause)
      return new ConnectionError(`${detail}: ${message}`, {
        cause: cause.cause,
        code: cause.code,
        address: options.base.host,
      })
    }
    if (ClickwireError.isInstance(cause)) return cause
    return new ConnectionError(`${detail}: ${(cause as Error | undefined)?.message ?? String(cause)}`, {
      cause,
      address: options.base.host,
    })
  }

  /**
   * Stops a query on the server from another request. Best effort: errors are ignored.
   * Resolves after the first attempt (a cancel() waits that long, not for the attempts
   * after a failure); close() waits for them all, through #kills.
   */
  #kill(queryId: string): Promise<void> {
    if (this.#closed) return Promise.resolve()
    let firstDone!: () => void
    const first = new Promise<void>((resolve) => {
      firstDone = resolve
    })
    const killing = this.#sendKill(queryId, firstDone).finally(firstDone)
    this.#kills.add(killing)
    void killing.finally(() => this.#kills.delete(killing))
    return first
  }

  /**
   * Sends the KILL QUERY, again after a failure to reach the server (a refused or dropped
   * connection: the one moment a query is left running on the server), every 250 ms within
   * 10 s, until close() ends it. An answer, even an error, ends it: sent again, a KILL
   * that arrived only kills nothing more.
   */
  async #sendKill(queryId: string, attempted: () => void): Promise<void> {
    const signal = this.#killing.signal
    const deadline = CallDeadline.background(signal, signal, 10_000)
    for (;;) {
      try {
        const exchange = await this.send(
          { queryId: newQueryId(), inSession: false, defaultFormat: 'TabSeparated' },
          `KILL QUERY WHERE query_id = ${quoteSqlString(queryId)} ASYNC`,
          {
            deadline,
            repeatable: () => ({ kind: 'statement', sql: 'KILL QUERY', retryable: false }),
            kill: false,
            background: true,
            outlivesClose: true,
          },
        )
        await readExchange(exchange, 64 * 1024, 'reading the answer to KILL QUERY')
        return
      } catch (error) {
        // The query may be gone already (the server's answer), or the server unreachable
        // for good: nothing more to do then.
        if (ClickHouseError.isInstance(error)) return
        if (signal.aborted || this.#closed || deadline.remaining() < 250) return
      }
      attempted()
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }

  /**
   * Ends every request still running with its call's "closed" error, giving the KILL QUERY
   * requests (theirs, and those still out for calls that already failed) up to 2 s, then
   * closes the backend.
   */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#stopping.abort()
    // Each stop sends its KILL QUERY before its first await, into #kills: so #kills holds
    // every KILL to wait for, those of calls that failed earlier included.
    for (const stop of [...this.#active]) void stop()
    const stopping = [...this.#kills]
    if (stopping.length > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        Promise.allSettled(stopping),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 2_000)
        }),
      ])
      clearTimeout(timer)
    }
    this.#closed = true
    this.#killing.abort()
    await this.backend.close()
  }
}
