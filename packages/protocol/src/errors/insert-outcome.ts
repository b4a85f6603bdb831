import { AbortError } from './abort-error.js'
import type { ClickwireError, InsertOutcome } from './clickwire-error.js'
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
 * stops it. Measured: 18.16 does (an insert of one row, stopped by an abort, a timeout or
 * close(), over native and HTTP, left its row stored); 26.7 does not (0 rows in the same
 * cases). Versions between were not measured, so they are taken to keep rows: saying "may
 * be stored" of rows that were not is safe, saying "not written" of stored rows is not.
 */
export function keepsRowsWhenStopped(version: string | undefined): boolean {
  const major = Number(/^(\d+)\./.exec(version ?? '')?.[1])
  return !(major >= 26)
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
 * The same error with what is known about the insert's rows: a connection failure, a
 * timeout or an abort gets {@link ClickwireError.insertOutcome} and the explaining sentence
 * in its message; any other error (the server's own, a usage error) is returned as it is.
 */
export function withInsertOutcome(error: unknown, at: InsertProgressAtBreak, queryId: string): unknown {
  const stopped = TimeoutError.isInstance(error) || AbortError.isInstance(error)
  const known =
    stopped && at.stoppedKeepsRows && !at.allSent && at.rowsSent > 0
      ? {
          outcome: 'incomplete' as const,
          text: `the insert is incomplete: it was stopped before all of its data was sent, and a server before 26.x stores the rows it had when an insert is stopped (${at.rowsSent} rows sent)`,
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
  return error
}
