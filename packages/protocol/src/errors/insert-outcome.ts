import { AbortError } from './abort-error.js'
import { ClickHouseError } from './clickhouse-error.js'
import { ClickwireError, type InsertOutcome } from './clickwire-error.js'
import { ConnectionError } from './connection-error.js'
import { TimeoutError } from './timeout-error.js'

/** Squashing thresholds of the server when the insert's settings do not change them. */
export const defaultSquashing = { rows: 1_048_576, bytes: 268_435_456 } as const

/**
 * How far an insert that failed without the server's answer got, as the transports track it.
 * `rowsSent` and `bytesSent` count the blocks handed to the socket before the break, the
 * bytes as serialised before compression.
 */
export interface InsertProgressAtBreak {
  /** Whether the last block and the end marker were sent. */
  readonly allSent: boolean
  readonly rowsSent: number
  readonly bytesSent: number
  /** The effective `min_insert_block_size_rows` / `_bytes` (the defaults when not set). */
  readonly squashRows: number
  readonly squashBytes: number
  /**
   * Whether the server stores the rows it already has when the client stops an insert (a
   * timeout, an abort, close(): the client cancels and kills it). See {@link keepsRowsWhenStopped}.
   */
  readonly stoppedKeepsRows?: boolean | undefined
}

/**
 * Whether a server of this version may store the rows an insert had sent when the client
 * stops it (a timeout, an abort, close(), a failing source). No version does, since both
 * transports hold back the last byte of every block until the next one goes out: data that
 * stops early always ends inside a block, which every server takes as an error. (Without
 * that, 18.16 stored such rows, over native and HTTP: it takes data that ends at a block
 * boundary as the whole insert; 26.x did not.) Rows of blocks the server had already
 * squashed and written stay stored on every version: {@link insertOutcomeAt} says so.
 */
export function keepsRowsWhenStopped(_version: string | undefined): boolean {
  return false
}

/**
 * A block's size in server memory can be several times its Native serialisation (an empty
 * String is 1 byte on the wire, 9 in memory); bytes are compared with this margin.
 */
const memoryFactor = 10

/** The outcome of an insert that broke at `at`, with the sentence that explains it. */
export function insertOutcomeAt(at: InsertProgressAtBreak): { outcome: InsertOutcome; text: string } {
  if (at.allSent) {
    return {
      outcome: 'unknown',
      text: 'the insert may have been written: all of its data was sent, but the server did not confirm it (retrying may duplicate it)',
    }
  }
  const squashing = at.squashRows > 0 || at.squashBytes > 0
  const belowRows = at.squashRows === 0 || at.rowsSent < at.squashRows
  const belowBytes = at.squashBytes === 0 || at.bytesSent * memoryFactor < at.squashBytes
  if (at.rowsSent === 0 || (squashing && belowRows && belowBytes)) {
    return {
      outcome: 'not-written',
      text: `the insert was not written: it broke before all of its data was sent (${at.rowsSent} rows sent, below the squashing threshold, so none was stored)`,
    }
  }
  return {
    outcome: 'incomplete',
    text: `the insert is incomplete: it broke before all of its data was sent; blocks sent before the break may be stored (${at.rowsSent} rows sent, never part of a block)`,
  }
}

/** A squashing setting's value from the insert's settings, else `fallback`. */
export function squashSetting(value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback
  const number = Number(value)
  return Number.isFinite(number) && number >= 0 ? number : fallback
}

/**
 * The same error with what is known about the insert's rows, as
 * {@link ClickwireError.insertOutcome}. A connection failure, a timeout or an abort is made
 * again with the explaining sentence in its message. Any other error keeps its message and
 * gets the outcome as a property: the server's own error (it failed the insert, so only
 * blocks it had squashed and written can be stored), a protocol error, a usage error (a
 * value that cannot be encoded: the client stopped sending, and the block it cut short makes
 * the server drop the rest), and the caller's own error from its source of rows (an
 * `Error` gets the property, when it has none).
 */
export function withInsertOutcome(error: unknown, at: InsertProgressAtBreak, queryId: string): unknown {
  const stopped = TimeoutError.isInstance(error) || AbortError.isInstance(error)
  const known =
    stopped && at.stoppedKeepsRows && !at.allSent && at.rowsSent > 0
      ? {
          outcome: 'incomplete' as const,
          text: `the insert is incomplete: it was stopped before all of its data was sent, and the server may store the rows it had when an insert is stopped (${at.rowsSent} rows sent)`,
        }
      : insertOutcomeAt(at)
  const suffix = `; insert ${queryId}: ${known.text}`
  const original = error as ClickwireError
  if (ConnectionError.isInstance(error)) {
    if (error.insertOutcome) return error
    return new ConnectionError(`${error.message}${suffix}`, {
      cause: error,
      code: error.code,
      address: error.address,
      insertOutcome: known.outcome,
    })
  }
  if (TimeoutError.isInstance(error)) {
    if (error.insertOutcome) return error
    return new TimeoutError(error.timeout, error.timeoutMs, `${error.message}${suffix}`, {
      cause: error,
      insertOutcome: known.outcome,
    })
  }
  if (AbortError.isInstance(error)) {
    if (error.insertOutcome) return error
    return new AbortError(error.reason, `${original.message}${suffix}`, { insertOutcome: known.outcome })
  }
  // The server failed the insert itself: whatever it had not written yet is dropped, even
  // when all of the data had been sent.
  const refused = ClickHouseError.isInstance(error)
  return withOutcome(error, refused ? insertOutcomeAt({ ...at, allSent: false }).outcome : known.outcome)
}

/**
 * `error` with {@link ClickwireError.insertOutcome} set to `outcome`, unless it has one: a
 * ClickwireError, or any other `Error` (the caller's own, from its source of rows), which
 * gets it as a property that does not show in its enumerable keys. Other values are
 * returned as they are.
 */
export function withOutcome(error: unknown, outcome: InsertOutcome): unknown {
  if (!(error instanceof Error) && !ClickwireError.isInstance(error)) return error
  const target = error as { insertOutcome?: InsertOutcome }
  if (target.insertOutcome !== undefined) return error
  if (ClickwireError.isInstance(error)) {
    // A class field, readonly in its type only.
    target.insertOutcome = outcome
  } else if (Object.isExtensible(error)) {
    Object.defineProperty(error, 'insertOutcome', { value: outcome, configurable: true, writable: true })
  }
  return error
}
