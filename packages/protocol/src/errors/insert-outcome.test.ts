import { describe, expect, it } from 'vitest'
import { AbortError } from './abort-error.js'
import { ClickHouseError } from './clickhouse-error.js'
import { ConnectionError } from './connection-error.js'
import {
  defaultSquashing,
  insertOutcomeAt,
  keepsRowsWhenStopped,
  squashSetting,
  withInsertOutcome,
  withOutcome,
} from './insert-outcome.js'
import { ProtocolError } from './protocol-error.js'
import { TimeoutError } from './timeout-error.js'
import { UsageError } from './usage-error.js'

const squash = { squashRows: defaultSquashing.rows, squashBytes: defaultSquashing.bytes }

describe('insertOutcomeAt', () => {
  it('is unknown once every block and the end marker were sent', () => {
    expect(insertOutcomeAt({ allSent: true, rowsSent: 5, bytesSent: 40, ...squash }).outcome).toBe('unknown')
    expect(insertOutcomeAt({ allSent: true, rowsSent: 0, bytesSent: 0, ...squash }).text).toBe(
      'the insert may have been written: all of its data was sent, but the server did not confirm it (retrying may duplicate it)',
    )
  })

  it('is not written below the squashing thresholds, and incomplete past either or without squashing', () => {
    expect(
      insertOutcomeAt({ allSent: false, rowsSent: 999_999, bytesSent: 10_000_000, ...squash }).outcome,
    ).toBe('not-written')
    // Rows past min_insert_block_size_rows: a squashed block may have been stored.
    expect(insertOutcomeAt({ allSent: false, rowsSent: 1_048_576, bytesSent: 1000, ...squash }).outcome).toBe(
      'incomplete',
    )
    // Bytes past a tenth of min_insert_block_size_bytes (a block is larger in memory).
    expect(insertOutcomeAt({ allSent: false, rowsSent: 10, bytesSent: 26_843_546, ...squash }).outcome).toBe(
      'incomplete',
    )
    // Squashing off: each block is stored as it arrives.
    const off = insertOutcomeAt({
      allSent: false,
      rowsSent: 10,
      bytesSent: 100,
      squashRows: 0,
      squashBytes: 0,
    })
    expect(off.outcome).toBe('incomplete')
    expect(off.text).toBe(
      'the insert is incomplete: it broke before all of its data was sent; blocks sent before the break may be stored (10 rows sent, never part of a block)',
    )
    expect(
      insertOutcomeAt({ allSent: false, rowsSent: 0, bytesSent: 0, squashRows: 0, squashBytes: 0 }).outcome,
    ).toBe('not-written')
  })

  it('reads the squashing settings, falling back to the defaults', () => {
    expect(squashSetting(undefined, 7)).toBe(7)
    expect(squashSetting('0', 7)).toBe(0)
    expect(squashSetting(1000n, 7)).toBe(1000)
    expect(squashSetting('x', 7)).toBe(7)
  })
})

describe('withInsertOutcome', () => {
  const at = { allSent: true, rowsSent: 3, bytesSent: 30, ...squash }

  it('adds the outcome to connection failures, timeouts and aborts, keeping their class', () => {
    const connection = withInsertOutcome(
      new ConnectionError('x closed the connection'),
      at,
      'q1',
    ) as ConnectionError
    expect(ConnectionError.isInstance(connection)).toBe(true)
    expect(connection.insertOutcome).toBe('unknown')
    expect(connection.message).toBe(
      'x closed the connection; insert q1: the insert may have been written: all of its data was sent, but the server did not confirm it (retrying may duplicate it)',
    )
    const timeout = withInsertOutcome(new TimeoutError('query', 100, 'too slow'), at, 'q2') as TimeoutError
    expect(TimeoutError.isInstance(timeout)).toBe(true)
    expect([timeout.insertOutcome, timeout.timeoutMs]).toEqual(['unknown', 100])
    const abort = withInsertOutcome(new AbortError(undefined, 'stopped'), at, 'q3') as AbortError
    expect([AbortError.isInstance(abort), abort.insertOutcome]).toEqual([true, 'unknown'])
  })

  it('gives the server’s own errors the outcome, keeping the error: the server failed the insert', () => {
    const server = new ClickHouseError({ code: 27, type: 'DB::Exception', message: 'Cannot parse input' })
    const refused = withInsertOutcome(server, at, 'q4') as ClickHouseError
    expect(refused).toBe(server)
    expect(refused.message).toBe('Cannot parse input')
    // All was sent, but the server refused it: only squashed blocks could have been stored.
    expect(refused.insertOutcome).toBe('not-written')
    const large = new ClickHouseError({ code: 27, type: 'DB::Exception', message: 'Cannot parse input' })
    const past = withInsertOutcome(large, { ...at, rowsSent: 2_000_000 }, 'q5') as ClickHouseError
    expect(past.insertOutcome).toBe('incomplete')
  })

  it('gives usage errors, protocol errors and the source’s own errors the outcome, keeping them', () => {
    const broke = { allSent: false, rowsSent: 2000, bytesSent: 10_000, ...squash }
    const usage = new UsageError('column [1] "u8" UInt8: row 150000: 300 is not a valid UInt8 (out of range)')
    expect(withInsertOutcome(usage, broke, 'q6')).toBe(usage)
    expect(usage.insertOutcome).toBe('not-written')
    const protocol = withInsertOutcome(
      new ProtocolError('unexpected Totals packet'),
      at,
      'q7',
    ) as ProtocolError
    expect(protocol.insertOutcome).toBe('unknown')
    const own = new Error('the source broke')
    expect(withInsertOutcome(own, broke, 'q8')).toBe(own)
    expect((own as { insertOutcome?: string }).insertOutcome).toBe('not-written')
    // Not among its keys: a caller's error that is logged or compared stays as it was.
    expect(Object.keys(own)).toEqual([])
    // An outcome already given is kept; a value that is no error is left alone.
    expect(withOutcome(usage, 'unknown')).toBe(usage)
    expect(usage.insertOutcome).toBe('not-written')
    expect(withOutcome('text', 'not-written')).toBe('text')
  })

  it('says incomplete when the caller says the server keeps a stopped insert’s rows and it had some', () => {
    const at = { allSent: false, rowsSent: 3, bytesSent: 30, squashRows: 1_048_576, squashBytes: 268_435_456 }
    const stopped = withInsertOutcome(
      new AbortError(undefined, 'insert q1 was aborted'),
      { ...at, stoppedKeepsRows: true },
      'q1',
    ) as AbortError
    expect(stopped.insertOutcome).toBe('incomplete')
    expect(stopped.message).toBe(
      'insert q1 was aborted; insert q1: the insert is incomplete: it was stopped before all of its data was sent, and the server may store the rows it had when an insert is stopped (3 rows sent)',
    )
    // A broken connection is not a stop: the server drops what it had (checked on 18.16).
    const broken = withInsertOutcome(
      new ConnectionError('reset'),
      { ...at, stoppedKeepsRows: true },
      'q1',
    ) as ConnectionError
    expect(broken.insertOutcome).toBe('not-written')
    // Nothing sent is nothing stored, whatever the server.
    const none = withInsertOutcome(
      new TimeoutError('query', 10),
      { ...at, rowsSent: 0, stoppedKeepsRows: true },
      'q1',
    ) as TimeoutError
    expect(none.insertOutcome).toBe('not-written')
    // No version does, since every block's last byte is held back (measured on 18.16 and 26.x).
    expect(keepsRowsWhenStopped('18.16.1')).toBe(false)
    expect(keepsRowsWhenStopped('25.8.3.1')).toBe(false)
    expect(keepsRowsWhenStopped('26.7.2.1')).toBe(false)
    expect(keepsRowsWhenStopped(undefined)).toBe(false)
  })
})
