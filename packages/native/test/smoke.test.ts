import { expect, inject, it } from 'vitest'
import { createNativeTransport } from '../src/index.js'
import { parseNativeUrl } from '../src/native-options.js'

const server = inject('clickhouse')

it('runs a query', async () => {
  for (const compression of ['lz4', 'none', 'zstd'] as const) {
    const native = createNativeTransport({ hosts: parseNativeUrl(server.nativeUrl).hosts, compression })
    const stream = await native.query('SELECT number, toString(number) AS s FROM system.numbers LIMIT 100000')
    expect((await stream.columns()).map((c) => c.name)).toEqual(['number', 's'])
    let rows = 0
    let sum = 0n
    for await (const block of stream) {
      rows += block.rows
      for (const v of block.columns[0]!.column.values() as BigUint64Array) sum += v
    }
    expect(rows).toBe(100000)
    expect(sum).toBe(4999950000n)
    expect(native.poolStats).toEqual({ open: 1, idle: 1, waiting: 0, created: 1 })
    await native.close()
  }
})
