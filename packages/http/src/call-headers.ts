import type { RequestOptions } from '@clickwire/protocol'
import type { ResponseHeaders } from './http-backend.js'

/**
 * The headers one call adds to the transport's own: the caller's `headers`, and the W3C
 * `traceparent` / `tracestate` of its trace context, so that the server's spans
 * (`system.opentelemetry_span_log`) continue the caller's trace.
 */
export function callHeaders(options: RequestOptions): Readonly<Record<string, string>> | undefined {
  const trace = options.traceContext
  if (!trace) return options.headers
  const headers: Record<string, string> = { ...options.headers }
  const flags = (trace.traceFlags & 0xff).toString(16).padStart(2, '0')
  headers.traceparent = `00-${trace.traceId.toLowerCase()}-${trace.spanId.toLowerCase()}-${flags}`
  if (trace.traceState) headers.tracestate = trace.traceState
  return headers
}

/** Hands the response headers to the call's `onResponseHeaders`, if it has one. */
export function reportResponseHeaders(options: RequestOptions, headers: ResponseHeaders): void {
  if (options.onResponseHeaders) options.onResponseHeaders(headers.toRecord?.() ?? {})
}
