import { TimeoutError } from './timeout-error.js'

/*
 * The wait for a free pooled connection, worded once for every transport: a full pool is
 * nearly always results left unread (each holds its connection until it is read to the end
 * or cancelled), so the message says so and names the options that change it.
 */

/**
 * How long a request waits for a free pooled connection unless told otherwise: 30 s, like
 * `@clickhouse/client`'s default request timeout. Long enough for a busy pool to free a
 * connection, short enough that a pool held by unread results fails instead of hanging.
 */
export const defaultAcquireTimeoutMs = 30_000

/**
 * The TimeoutError (`timeout: 'acquire'`) of a request that found every pooled connection
 * busy for `waitedMs`.
 *
 * @param maxConnections the pool's size, named in the message
 */
export function acquireTimeoutError(waitedMs: number, maxConnections: number): TimeoutError {
  return new TimeoutError(
    'acquire',
    waitedMs,
    `no connection became free within ${waitedMs} ms: all ${maxConnections} connections of the pool (maxConnections) are in use. A query holds its connection until its result is read to the end or cancelled, so results left unread (Promise.all of more queries than maxConnections, each unconsumed) hold them all: read or cancel each result (await using does), or raise maxConnections or acquireTimeoutMs`,
  )
}
