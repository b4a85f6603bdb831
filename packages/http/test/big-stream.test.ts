import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')

describe('a 10M-row stream', () => {
  const http = createHttpTransport({ url: server.httpUrl })
  afterAll(() => http.close())

  it('runs with bounded memory and every row arrives', async () => {
    const before = process.memoryUsage.rss()
    let peak = before
    let rows = 0
    let sum = 0n
    let textLength = 0
    const result = await http.query('SELECT number, toString(number) FROM system.numbers LIMIT 10000000')
    for await (const block of result) {
      const numbers = block.columns[0]!.column.values() as BigUint64Array
      for (let i = 0; i < numbers.length; i++) sum += numbers[i]!
      // Decode the strings too (the String column is lazy), as a consumer would.
      const texts = block.columns[1]!.column.values() as string[]
      textLength += texts.length
      rows += block.rows
      if ((rows & 0xfffff) < block.rows) peak = Math.max(peak, process.memoryUsage.rss())
    }
    peak = Math.max(peak, process.memoryUsage.rss())
    expect(rows).toBe(10_000_000)
    expect(textLength).toBe(10_000_000)
    expect(sum).toBe(49_999_995_000_000n)
    const growth = (peak - before) / 2 ** 20
    console.log(`RSS growth over the 10M-row stream: ${growth.toFixed(1)} MiB`)
    expect(growth).toBeLessThan(300)
  }, 120_000)
})
