import { describe, expect, it } from 'vitest'
import { type FailedAttempt, safeToRepeat, shouldRetry } from './retry-policy.js'

const stale = (request: FailedAttempt['request'], attempts = 1): FailedAttempt => ({
  staleConnection: true,
  request,
  attempts,
  pooledConnections: 2,
})

describe('the retry policy of both transports', () => {
  it('repeats only what is safe to repeat', () => {
    expect(safeToRepeat({ kind: 'statement', sql: 'SELECT 1' })).toBe(true)
    expect(safeToRepeat({ kind: 'statement', sql: '-- c\n(WITH 1 AS x SELECT x)' })).toBe(true)
    expect(safeToRepeat({ kind: 'ping' })).toBe(true)
    expect(safeToRepeat({ kind: 'insert', rowsStarted: false })).toBe(true)
    expect(safeToRepeat({ kind: 'insert', rowsStarted: true })).toBe(false)
    for (const sql of [
      'INSERT INTO t SELECT 1',
      'INSERT INTO t VALUES (1)',
      'CREATE TABLE t (x UInt8) ENGINE = Memory',
      'ALTER TABLE t DELETE WHERE 1',
      'DROP TABLE t',
      'KILL QUERY WHERE 1',
      'OPTIMIZE TABLE t',
      'SYSTEM FLUSH LOGS',
    ]) {
      expect(safeToRepeat({ kind: 'statement', sql }), sql).toBe(false)
    }
    expect(safeToRepeat({ kind: 'statement', sql: 'CREATE TABLE IF NOT EXISTS t', retryable: true })).toBe(
      true,
    )
    expect(safeToRepeat({ kind: 'statement', sql: 'SELECT 1', retryable: false })).toBe(false)
  })

  it('retries a stale pooled connection once per pooled connection, then gives up', () => {
    const read = { kind: 'statement', sql: 'SELECT 1' } as const
    expect(shouldRetry(stale(read, 1))).toBe(true)
    expect(shouldRetry(stale(read, 2))).toBe(true)
    expect(shouldRetry(stale(read, 3))).toBe(false)
    expect(shouldRetry({ ...stale(read), staleConnection: false })).toBe(false)
    expect(shouldRetry(stale({ kind: 'statement', sql: 'DROP TABLE t' }))).toBe(false)
    expect(shouldRetry(stale({ kind: 'insert', rowsStarted: false }))).toBe(true)
    expect(shouldRetry(stale({ kind: 'insert', rowsStarted: true }))).toBe(false)
  })
})
