// Done-when "Big stream": 10M rows of (UInt64, String) stream with bounded memory, and the
// values are all there.
import { expect, inject, it } from 'vitest'
import { nativeOn } from './support/native-helpers.js'

const server = inject('clickhouse')

it('streams 10M rows with bounded RSS growth and checks the sum', { timeout: 240_000 }, async () => {
  const native = nativeOn(server)
  try {
    const stream = await native.query('SELECT number, toString(number) FROM system.numbers LIMIT 10000000')
    let rows = 0
    let sum = 0n
    let stringChecks = 0
    let blocks = 0
    let baseline = 0
    let peak = 0
    for await (const block of stream) {
      const numbers = block.columns[0]!.column.values() as BigUint64Array
      const strings = block.columns[1]!.column
      for (let row = 0; row < block.rows; row++) sum += numbers[row]!
      // Every string matches its number at the block's ends and in the middle.
      for (const row of [0, block.rows >> 1, block.rows - 1]) {
        expect(strings.get(row)).toBe(String(numbers[row]))
        stringChecks++
      }
      rows += block.rows
      blocks++
      // After a warm-up (code compiled, buffers allocated) the RSS must stay flat.
      if (blocks === 10) baseline = process.memoryUsage.rss()
      if (blocks > 10 && blocks % 8 === 0) peak = Math.max(peak, process.memoryUsage.rss())
    }
    expect(rows).toBe(10_000_000)
    expect(sum).toBe(49_999_995_000_000n)
    expect(stringChecks).toBe(blocks * 3)
    const growthMiB = (peak - baseline) / 2 ** 20
    console.log(
      `big stream: ${blocks} blocks, RSS after 10 blocks ${(baseline / 2 ** 20).toFixed(1)} MiB, peak ${(peak / 2 ** 20).toFixed(1)} MiB, growth ${growthMiB.toFixed(1)} MiB`,
    )
    // The result is ~160 MB of Native bytes (80 MB of UInt64, 79 MB of strings); the
    // read-ahead is 16 MiB and a consumed block is garbage. RSS swings with the GC
    // (measured 110-160 MiB) but does not follow the size of the result.
    expect(growthMiB).toBeLessThan(100)
    expect(native.poolStats).toMatchObject({ open: 1, idle: 1 })
  } finally {
    await native.close()
  }
})

it('decodes correctly when the receive buffer moves while a socket read is pending', {
  timeout: 120_000,
}, async () => {
  // Buffers smaller than one block make the decoder move pending bytes to a larger buffer
  // often, while Node already holds the old region for its next read.
  for (const compression of ['lz4', 'none'] as const) {
    const native = nativeOn(server, { compression, readBufferBytes: 300_000 })
    try {
      let sum = 0n
      let rows = 0
      for await (const block of await native.query(
        'SELECT number, toString(number) FROM system.numbers LIMIT 3000000',
      )) {
        for (const value of block.columns[0]!.column.values() as BigUint64Array) sum += value
        expect(block.columns[1]!.column.get(block.rows - 1)).toBe(String(rows + block.rows - 1))
        rows += block.rows
      }
      expect([compression, rows, sum]).toEqual([compression, 3_000_000, 4_499_998_500_000n])
    } finally {
      await native.close()
    }
  }
})
