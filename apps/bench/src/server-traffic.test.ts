import { describe, expect, it } from 'vitest'
import { minimumTransferBytes, transferShortfall } from './server-traffic.js'

const before = { sentBytes: 1_000, receivedBytes: 500 }

describe('transferShortfall', () => {
  it('passes a read whose rows the server sent', () => {
    // clickhouse-client --format Null of 100M UInt64s on 26.7: 800 MB sent.
    expect(transferShortfall('numbers', 100e6, before, { sentBytes: 800_046_234, receivedBytes: 900 })).toBe(
      undefined,
    )
  })

  it('fails a read the server discarded itself (FORMAT Null inside the query on 26.7)', () => {
    const after = { sentBytes: 1_987, receivedBytes: 837 }
    expect(transferShortfall('numbers', 100e6, before, after)).toMatch(/sent 987 bytes for 100000000 rows/)
  })

  it('checks inserts on the bytes received', () => {
    expect(transferShortfall('insert', 45_202, before, { sentBytes: 1e9, receivedBytes: 600 })).toMatch(
      /received 100 bytes/,
    )
    expect(transferShortfall('insert', 45_202, before, { sentBytes: 1_000, receivedBytes: 30e6 })).toBe(
      undefined,
    )
  })

  it('asks for a byte per 8 rows', () => {
    expect(minimumTransferBytes(45_202)).toBe(5_651)
    expect(minimumTransferBytes(0)).toBe(0)
  })
})
