import { UsageError } from '@clickwire/protocol'
import {
  type BackendRequest,
  type BackendResponse,
  type BodyReader,
  backendFailure,
  type HttpBackend,
  headersFrom,
} from './http-backend.js'

/**
 * The backend for browsers, edge runtimes and anything else with a WHATWG `fetch`. The
 * runtime owns connections and keep-alive; response bodies are read through the stream's
 * reader, which stops pulling from the network while chunks wait unread.
 *
 * Streaming request bodies need `duplex: 'half'`, which browsers allow only over HTTP/2:
 * there, and wherever `streamingUploads` is false, an insert body is gathered first and
 * sent at once.
 */
export function fetchBackend(
  options: { fetch?: typeof fetch | undefined; streamingUploads?: boolean | undefined } = {},
): HttpBackend {
  const fetchImpl = options.fetch ?? globalThis.fetch
  if (typeof fetchImpl !== 'function')
    throw new UsageError('no fetch in this runtime: pass one as the fetch option')
  const streamingUploads = options.streamingUploads ?? false
  let closed = false

  async function requestBody(body: BackendRequest['body']): Promise<BodyInit | undefined> {
    if (body === undefined || typeof body === 'string') return body
    if (body instanceof Uint8Array) return body as Uint8Array<ArrayBuffer>
    if (streamingUploads) {
      const iterator = body[Symbol.asyncIterator]()
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const step = await iterator.next()
          if (step.done) controller.close()
          else controller.enqueue(step.value)
        },
        async cancel(reason) {
          await iterator.return?.(reason)
        },
      }) as unknown as BodyInit
    }
    const parts: Uint8Array[] = []
    let total = 0
    for await (const part of body) {
      parts.push(part)
      total += part.length
    }
    const all = new Uint8Array(total)
    let offset = 0
    for (const part of parts) {
      all.set(part, offset)
      offset += part.length
    }
    return all
  }

  return {
    name: 'fetch',
    async send(request: BackendRequest): Promise<BackendResponse> {
      if (closed) throw backendFailure('before-response', new UsageError('the backend is closed'))
      const idle = new IdleTimer(request.receiveTimeoutMs)
      const signal = idle.link(request.signal)
      let response: Response
      try {
        const body = await requestBody(request.body)
        const init: RequestInit & { duplex?: 'half' } = {
          method: request.method,
          headers: request.headers,
          body,
          signal,
          redirect: 'manual',
          credentials: 'omit',
        }
        if (body instanceof ReadableStream) init.duplex = 'half'
        response = await fetchImpl(request.url, init)
      } catch (error) {
        idle.stop()
        const timeout = idle.fired ? 'idle' : undefined
        const explained = timeout
          ? error
          : // Loaded only when a request failed: a page that never meets a refusal never fetches it.
            await (await import('./cors-refusal-probe.js')).explainCorsRefusal(
              error,
              request.url,
              fetchImpl,
              request.signal,
            )
        throw backendFailure('before-response', explained, { timeout })
      }
      idle.touch()
      const stream = response.body
      const reader = stream?.getReader()
      const body: BodyReader = {
        async read() {
          if (!reader) return undefined
          try {
            const step = await reader.read()
            if (step.done) {
              idle.stop()
              return undefined
            }
            idle.touch()
            return step.value
          } catch (error) {
            idle.stop()
            throw backendFailure('body', error, { timeout: idle.fired ? 'idle' : undefined })
          }
        },
        cancel(reason) {
          idle.stop()
          reader?.cancel(reason).catch(() => {})
        },
      }
      return { status: response.status, headers: headersFrom(response.headers), body }
    },
    async close() {
      closed = true
    },
  }
}

/** Aborts a fetch when no byte arrived for `ms` (fetch has no idle timeout of its own). */
class IdleTimer {
  fired = false
  private readonly controller = new AbortController()
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(private readonly ms: number) {}

  link(outer: AbortSignal): AbortSignal {
    if (this.ms <= 0) return outer
    this.touch()
    return AbortSignal.any([outer, this.controller.signal])
  }

  touch(): void {
    if (this.ms <= 0) return
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.fired = true
      this.controller.abort(new Error(`no data for ${this.ms} ms`))
    }, this.ms)
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }
}
