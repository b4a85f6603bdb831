/**
 * What the transport needs from an HTTP client: send one request, get the status, the
 * headers and a body to pull chunks from. The universal core talks only to this
 * interface; the Node entry plugs in node:http, browsers and edge runtimes plug in fetch.
 */

/** A request body: bytes or text sent at once, or chunks produced while the request is sent. */
export type BackendBody = string | Uint8Array | AsyncIterable<Uint8Array>

export interface BackendRequest {
  /** Absolute URL, query string included. */
  readonly url: string
  readonly method: 'GET' | 'POST'
  readonly headers: Readonly<Record<string, string>>
  readonly body?: BackendBody | undefined
  /** Aborts the request, or the reading of its body. */
  readonly signal: AbortSignal
  /** Longest wait for the response headers or for the next body chunk, 0 for none. */
  readonly receiveTimeoutMs: number
  /**
   * A short request of the transport's own made while results may hold every pooled
   * socket (a DESCRIBE for result metadata): it goes out on a socket aside from the pool
   * where the backend has a pool of its own (node:http).
   */
  readonly aside?: boolean | undefined
}

/** Response headers, looked up case-insensitively; repeated headers are joined with `, `. */
export interface ResponseHeaders {
  get(name: string): string | undefined
  /** Every header, names lower case (for `onResponseHeaders`); backends that cannot list them leave it out. */
  toRecord?(): Record<string, string>
}

/**
 * A response body read chunk by chunk. The producer stops reading from the network while
 * chunks wait unread, so memory stays bounded however slowly the consumer pulls.
 */
export interface BodyReader {
  /**
   * The next chunk, or undefined once the body ended cleanly. Rejects when the body ended
   * abnormally (connection reset, a chunked body without its last chunk, a timeout).
   */
  read(): Promise<Uint8Array | undefined>
  /**
   * Every chunk that has arrived (at least one), or undefined at the clean end. Servers send
   * small HTTP chunks (18.16: 4 KiB), so taking them in batches saves a promise per chunk.
   */
  readBatch?(): Promise<Uint8Array[] | undefined>
  /** Stops reading; the connection is closed rather than reused. Safe to call twice. */
  cancel(reason?: unknown): void
}

export interface BackendResponse {
  readonly status: number
  readonly headers: ResponseHeaders
  readonly body: BodyReader
}

/**
 * Errors a backend rejects with. `phase` says whether any byte of the response had
 * arrived: only failures `before-response` can be retried, and only for requests that
 * are safe to repeat.
 */
export interface BackendFailure {
  readonly phase: 'before-response' | 'body'
  /** System or client error code (`ECONNRESET`, `UND_ERR_SOCKET`, ...), when there is one. */
  readonly code: string | undefined
  /** Which limit ran out, when the failure was a timeout of the backend itself. */
  readonly timeout?: 'connect' | 'idle' | undefined
  readonly cause: unknown
}

const failureBrand = Symbol.for('clickwire.http.backend-failure')

/** Wraps a low-level error so the transport can classify it without knowing the backend. */
export function backendFailure(
  phase: BackendFailure['phase'],
  cause: unknown,
  extra: { code?: string | undefined; timeout?: 'connect' | 'idle' | undefined } = {},
): BackendFailure {
  const code = extra.code ?? errorCode(cause)
  return { [failureBrand]: true, phase, code, timeout: extra.timeout, cause } as BackendFailure
}

export function isBackendFailure(value: unknown): value is BackendFailure {
  return (
    typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[failureBrand] === true
  )
}

/** The `code` of an error or of its causes (fetch nests the socket error as `cause`). */
export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** An HTTP client the transport can use. */
export interface HttpBackend {
  /** Short name for messages: `node:http`, `fetch`. */
  readonly name: string
  /** Resolves once the status and headers arrived; rejects with a {@link BackendFailure}. */
  send(request: BackendRequest): Promise<BackendResponse>
  /** Closes idle connections and refuses new requests. */
  close(): Promise<void>
}

/** Headers from a plain record (node:http) or a `Headers` object (fetch). */
export function headersFrom(
  source: Headers | Readonly<Record<string, string | string[] | undefined>>,
): ResponseHeaders {
  if (typeof (source as Headers).get === 'function' && typeof (source as Headers).forEach === 'function') {
    const headers = source as Headers
    return {
      get: (name) => headers.get(name) ?? undefined,
      toRecord: () => {
        const record: Record<string, string> = {}
        headers.forEach((value, name) => {
          record[name.toLowerCase()] = value
        })
        return record
      },
    }
  }
  const lower = new Map<string, string>()
  for (const [name, value] of Object.entries(source as Record<string, string | string[] | undefined>)) {
    if (value === undefined) continue
    const key = name.toLowerCase()
    const text = Array.isArray(value) ? value.join(', ') : value
    const known = lower.get(key)
    lower.set(key, known === undefined ? text : `${known}, ${text}`)
  }
  return { get: (name) => lower.get(name.toLowerCase()), toRecord: () => Object.fromEntries(lower) }
}
