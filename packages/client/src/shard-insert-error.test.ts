import { AbortError, ConnectionError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { type ShardOutcome, shardFailureMessage } from './shard-insert-error.js'
import { overallOutcome } from './sharded-insert.js'

const url = 'clickhouse://127.0.0.1:9000'
const written: ShardOutcome = { shard: 1, url, rowsSent: 5, status: 'written', rowsWritten: 5 }
const failure = new ConnectionError('the connection was reset')

/** A shard that did not confirm its rows, with the error it ended with. */
function unconfirmed(
  shard: number,
  rowsSent: number,
  status: 'failed' | 'cancelled',
  error: unknown,
): ShardOutcome {
  return { shard, url, rowsSent, status, rowsWritten: 0, error }
}

describe('shardFailureMessage', () => {
  it('names a cancelled shard whose stop may have kept its rows', () => {
    const shards = [
      unconfirmed(2, 4, 'failed', failure),
      unconfirmed(3, 7, 'cancelled', new AbortError('stopped')),
    ]
    expect(shardFailureMessage(2, shards, failure)).toBe(
      'the insert into shard 2 failed: the connection was reset; ' +
        'shards 2 (4 rows sent), 3 (7 rows sent) may have stored rows (see error.shards)',
    )
  })

  it('says no shard stored rows only when every error says not-written', () => {
    const notWritten = new AbortError('stopped', undefined, { insertOutcome: 'not-written' })
    const shards = [unconfirmed(3, 7, 'cancelled', notWritten), unconfirmed(4, 0, 'failed', failure)]
    expect(shardFailureMessage(4, shards, failure)).toBe(
      'the insert into shard 4 failed: the connection was reset; no shard stored rows (see error.shards)',
    )
  })

  it('names the confirmed shards and the uncertain ones apart', () => {
    const unknown = new AbortError('stopped', undefined, { insertOutcome: 'unknown' })
    expect(
      shardFailureMessage(
        undefined,
        [written, unconfirmed(2, 3, 'cancelled', unknown)],
        new Error('bad row'),
      ),
    ).toBe(
      'the insert input failed: bad row; shard 1 (5 rows) confirmed their rows; ' +
        'shard 2 (3 rows sent) may have stored rows (see error.shards)',
    )
  })
})

describe('overallOutcome: a ShardInsertError’s insertOutcome', () => {
  const notWritten = (shard: number, rowsSent: number): ShardOutcome => ({
    ...unconfirmed(shard, rowsSent, 'cancelled', new AbortError('stopped')),
    insertOutcome: 'not-written',
  })

  it('is not-written when every shard that did not confirm says not-written', () => {
    const shards = [notWritten(2, 4), notWritten(3, 7)]
    expect(overallOutcome(shards)).toBe('not-written')
    // The message reads the shards' outcomes, not only their errors'.
    expect(shardFailureMessage(2, shards, failure)).toBe(
      'the insert into shard 2 failed: the connection was reset; no shard stored rows (see error.shards)',
    )
  })

  it('is incomplete once a shard confirmed rows, else the least certain shard’s', () => {
    expect(overallOutcome([written, notWritten(2, 4)])).toBe('incomplete')
    const unknown = { ...notWritten(3, 7), insertOutcome: 'unknown' as const }
    expect(overallOutcome([notWritten(2, 4), unknown])).toBe('unknown')
    // A shard without an outcome, whose error says none, may have stored its rows.
    const silent = unconfirmed(4, 3, 'failed', failure)
    expect(overallOutcome([silent])).toBe('unknown')
  })
})
