import { AbortError, ConnectionError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { type ShardOutcome, shardFailureMessage } from './shard-insert-error.js'

const url = 'clickhouse://127.0.0.1:9000'
const written: ShardOutcome = { shard: 1, url, rowsSent: 5, status: 'written', rowsWritten: 5 }
const failure = new ConnectionError('the connection was reset')

describe('shardFailureMessage', () => {
  it('names a cancelled shard whose stop may have kept its rows', () => {
    const stopped = new AbortError('stopped')
    const cancelled: ShardOutcome = {
      shard: 3,
      url,
      rowsSent: 7,
      status: 'cancelled',
      rowsWritten: 0,
      error: stopped,
    }
    const failed: ShardOutcome = {
      shard: 2,
      url,
      rowsSent: 4,
      status: 'failed',
      rowsWritten: 0,
      error: failure,
    }
    expect(shardFailureMessage(2, [failed, cancelled], failure)).toBe(
      'the insert into shard 2 failed: the connection was reset; ' +
        'shards 2 (4 rows sent), 3 (7 rows sent) may have stored rows (see error.shards)',
    )
  })

  it('says no shard stored rows only when every error says not-written', () => {
    const notWritten = Object.assign(new AbortError('stopped'), { insertOutcome: 'not-written' as const })
    const cancelled: ShardOutcome = {
      shard: 3,
      url,
      rowsSent: 7,
      status: 'cancelled',
      rowsWritten: 0,
      error: notWritten,
    }
    const empty: ShardOutcome = {
      shard: 4,
      url,
      rowsSent: 0,
      status: 'failed',
      rowsWritten: 0,
      error: failure,
    }
    expect(shardFailureMessage(4, [cancelled, empty], failure)).toBe(
      'the insert into shard 4 failed: the connection was reset; no shard stored rows (see error.shards)',
    )
  })

  it('names the confirmed shards and the uncertain ones apart', () => {
    const unknown = Object.assign(new AbortError('stopped'), { insertOutcome: 'unknown' as const })
    const cancelled: ShardOutcome = {
      shard: 2,
      url,
      rowsSent: 3,
      status: 'cancelled',
      rowsWritten: 0,
      error: unknown,
    }
    expect(shardFailureMessage(undefined, [written, cancelled], new Error('bad row'))).toBe(
      'the insert input failed: bad row; shard 1 (5 rows) confirmed their rows; ' +
        'shard 2 (3 rows sent) may have stored rows (see error.shards)',
    )
  })
})
