import { emptyProgress, type Progress } from '@clickwire/protocol'
import type { BackendResponse, BodyReader } from './http-backend.js'
import { finalProgress, progressFromHeaders } from './progress-headers.js'
import { RawResult } from './raw-result.js'

/** The longest error body or answer without data that is read. */
export const maxErrorBody = 1 << 20

/** One request that got its status 200 and headers: the body is still to be read. */
export interface Exchange {
  readonly queryId: string
  readonly response: BackendResponse
  /** Aborts the request and, when it may still run, stops the query on the server. */
  readonly stop: (reason: unknown) => Promise<void>
  /** Maps a body failure to the error to raise. */
  readonly bodyError: (cause: unknown, detail: string) => Error
  /** Releases timers and listeners. */
  readonly settle: () => void
}

/** Up to `limit` bytes of a body, read to its end (the rest is dropped). */
export async function readAll(body: BodyReader, limit: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  let total = 0
  for (;;) {
    const chunk = await body.read()
    if (chunk === undefined) break
    if (total < limit) parts.push(chunk.subarray(0, limit - total))
    total += chunk.length
  }
  const out = new Uint8Array(Math.min(total, limit))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/**
 * The whole (small) body of an exchange, then its timers released. A body that breaks off
 * is the transport's typed error, never the backend's failure record.
 */
export async function readExchange(exchange: Exchange, limit: number, detail: string): Promise<Uint8Array> {
  try {
    return await readAll(exchange.response.body, limit)
  } catch (error) {
    throw exchange.bodyError(error, detail)
  } finally {
    exchange.settle()
  }
}

/**
 * Reads a body that should carry no data (an insert, a command) and checks it for an
 * exception the server appended; resolves with the final progress from the headers.
 */
export async function drainExchange(exchange: Exchange, headerPrefix: string): Promise<Progress> {
  const result = new RawResult({
    queryId: exchange.queryId,
    format: undefined,
    body: exchange.response.body,
    exceptionTag: exchange.response.headers.get(`${headerPrefix}Exception-Tag`),
    progress: emptyProgress,
    stop: exchange.stop,
    bodyError: exchange.bodyError,
    settle: exchange.settle,
    holdBackBytes: maxErrorBody,
  })
  for await (const _ of result) {
    // The output of a command (DDL answers nothing; some statements answer a table).
  }
  return finalProgress(progressFromHeaders(exchange.response.headers, headerPrefix))
}
