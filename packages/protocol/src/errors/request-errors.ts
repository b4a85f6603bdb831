import { AbortError } from './abort-error.js'
import { TimeoutError } from './timeout-error.js'

/*
 * The words for a request that ended because its time ran out, its signal fired or the
 * client closed: one place, so that the native and HTTP transports say the same thing and
 * name the query id the server knows the request by (to look it up in system.query_log).
 * An insert adds what is known about its rows (insert-outcome.ts) after these words.
 */

/** What a request is, for its messages: a query (any statement) or an insert. */
export type RequestKind = 'query' | 'insert'

/** The time limit of a request ran out: `query <id> ran longer than <limit> ms`. */
export function requestTimeoutError(kind: RequestKind, queryId: string, limitMs: number): TimeoutError {
  return new TimeoutError('query', limitMs, `${kind} ${queryId} ran longer than ${limitMs} ms`)
}

/** The caller's signal fired: `query <id> was aborted`; `reason` is the signal's reason. */
export function requestAbortError(kind: RequestKind, queryId: string, reason: unknown): AbortError {
  return new AbortError(reason, `${kind} ${queryId} was aborted`)
}

/** `close()` ended the request: `query <id> was aborted: the client is closed`. */
export function requestClosedError(kind: RequestKind, queryId: string): AbortError {
  return new AbortError(undefined, `${kind} ${queryId} was aborted: the client is closed`)
}
