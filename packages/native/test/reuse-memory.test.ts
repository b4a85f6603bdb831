// Blocks whose memory is reused once the consumer asks for the next one (recycleBlocks):
// every value still right inside the loop, memory really reused, and nothing reused that
// outlives the promise (blocks of other queries, totals).
import type { NativeBlock } from '@clickwire/protocol'
import { describe, expect, inject, it } from 'vitest'
import { nativeOn } from './support/native-helpers.js'

const server = inject('clickhouse')
const rows = 3_000_000
const select = `SELECT number, toString(number) AS s, toUInt32(number % 7) AS m FROM system.numbers LIMIT ${rows}`

/** Checks one block's every number and remainder, and strings at its ends and middle. */
function checkBlock(block: NativeBlock, first: bigint): void {
  const numbers = block.columns[0]!.column.values() as BigUint64Array
  const remainders = block.columns[2]!.column.values() as Uint32Array
  for (let row = 0; row < block.rows; row++) {
    const expected = first + BigInt(row)
    if (numbers[row] !== expected || remainders[row] !== Number(expected % 7n)) {
      throw new Error(`row ${expected}: got ${numbers[row]} and ${remainders[row]}`)
    }
  }
  for (const row of [0, block.rows >> 1, block.rows - 1]) {
    expect(block.columns[1]!.column.get(row)).toBe(String(first + BigInt(row)))
  }
}

/** Reads the scan, checking every block inside the loop; returns the distinct buffers its numbers lived in. */
async function scan(compression: 'none' | 'lz4' | 'zstd', reuse: boolean, slow: boolean) {
  const native = nativeOn(server, { compression })
  try {
    const stream = await native.query(select, { settings: { max_block_size: 65_536 } })
    if (reuse) stream.recycleBlocks?.()
    const buffers = new Set<ArrayBufferLike>()
    let next = 0n
    let blocks = 0
    for await (const block of stream) {
      checkBlock(block, next)
      buffers.add((block.columns[0]!.column.values() as BigUint64Array).buffer)
      next += BigInt(block.rows)
      // A consumer that pauses lets the socket read ahead, into buffers the arena moves between.
      if (slow && ++blocks % 5 === 0) await new Promise((resolve) => setTimeout(resolve, 2))
    }
    expect(next).toBe(BigInt(rows))
    return buffers.size
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
    const kept: NativeBlock[] = []
    for await (const block of await native.query(select)) kept.push(block)
    // The same connection (the pool holds one) now streams with reused memory.
    const stream = await native.query(select)
    stream.recycleBlocks?.()
    let next = 0n
    for await (const block of stream) {
      checkBlock(block, next)
      next += BigInt(block.rows)
    }
    let first = 0n
    for (const block of kept) {
      checkBlock(block, first)
      first += BigInt(block.rows)
    }
    expect(first).toBe(BigInt(rows))
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
