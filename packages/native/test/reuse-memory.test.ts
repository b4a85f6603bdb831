// Blocks whose memory is reused once the consumer asks for the next one (recycleBlocks):
// every value still right inside the loop, memory really reused, and nothing reused that
// outlives the promise (blocks of other queries, totals).
import { checkKeptWhileRecycling, readScan, scanRows, scanSelect } from '@clickwire/testing'
import { describe, expect, inject, it } from 'vitest'
import { nativeOn } from './support/native-helpers.js'

const server = inject('clickhouse')

/** Reads the scan; returns the distinct buffers its numbers lived in. */
async function scan(compression: 'none' | 'lz4' | 'zstd', reuse: boolean, slow: boolean) {
  const native = nativeOn(server, { compression })
  try {
    const stream = await native.query(scanSelect, { settings: { max_block_size: 65_536 } })
    const { rows, buffers } = await readScan(stream, reuse, slow)
    expect(rows).toBe(BigInt(scanRows))
    return buffers
  } finally {
    await native.close()
  }
}

describe.each(['none', 'lz4', 'zstd'] as const)('compression %s', (compression) => {
  it.each([false, true])('keeps every value right with reused memory (slow consumer: %s)', async (slow) => {
    await scan(compression, true, slow)
  })
})

it('views far fewer buffers when memory is reused than when it is not', async () => {
  // 46 blocks of ~1.2 MB: fresh memory spreads them over a dozen 4 MiB buffers and copies;
  // reused memory cycles through a few.
  const fresh = await scan('none', false, false)
  const reused = await scan('none', true, false)
  expect(fresh).toBeGreaterThanOrEqual(15)
  expect(reused).toBeLessThanOrEqual(8)
})

it('never reuses memory of an earlier result the caller still holds', async () => {
  const native = nativeOn(server, { compression: 'none', maxConnections: 1 })
  try {
    // The same connection (the pool holds one) streams the second result with reused memory.
    expect(await checkKeptWhileRecycling(() => native.query(scanSelect))).toBe(BigInt(scanRows))
  } finally {
    await native.close()
  }
})

it('keeps totals intact, even after later queries reuse memory on the same connection', async () => {
  const native = nativeOn(server, { compression: 'none', maxConnections: 1 })
  try {
    const stream = await native.query(
      'SELECT number AS n, sum(number) AS s FROM numbers(300000) GROUP BY n WITH TOTALS',
      { settings: { max_block_size: 10_000 } },
    )
    stream.recycleBlocks?.()
    let groups = 0
    for await (const block of stream) groups += block.rows
    expect(groups).toBe(300_000)
    const totals = () => (stream.totals!.columns[1]!.column.values() as BigUint64Array)[0]
    expect(totals()).toBe(44_999_850_000n)
    // The totals' columns are 8-byte copies (they landed unaligned). A short query lets the
    // pool free what was retired before its own blocks; then one-row blocks of 24 UInt64
    // columns, most of them unaligned, take more 8-byte copies at once than the pool holds
    // free: none of them may be the totals' memory.
    const short = await native.query('SELECT number * 7 AS x FROM numbers(3)', {
      settings: { max_block_size: 1 },
    })
    short.recycleBlocks?.()
    let row = 0n
    for await (const block of short) expect(block.columns[0]!.column.get(0)).toBe(7n * row++)
    expect(row).toBe(3n)
    const products = Array.from({ length: 24 }, (_, i) => `number * ${i + 1} AS c${i}`).join(', ')
    const next = await native.query(`SELECT ${products} FROM numbers(200)`, {
      settings: { max_block_size: 1 },
    })
    next.recycleBlocks?.()
    let sum = 0n
    for await (const block of next) {
      for (const { column } of block.columns) sum += (column.values() as BigUint64Array)[0]!
    }
    expect(sum).toBe(19_900n * 300n)
    expect(totals()).toBe(44_999_850_000n)
  } finally {
    await native.close()
  }
})
