// Done-when "Compression": LZ4 (the default), ZSTD and none, for results, inserts and
// external tables, each checked to really travel in that method both ways.
import type { CompressionCodec, CompressionCodecs } from '@clickwire/protocol'
import { afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { loadCompression } from '../src/compression-loader.js'
import type { CompressionMethod } from '../src/index.js'
import { firstValue, nativeOn, uniqueName } from './support/native-helpers.js'

const server = inject('clickhouse')
let codecs: CompressionCodecs

beforeAll(async () => {
  // The transports share these codec objects (one set per process and ZSTD level).
  codecs = await loadCompression('zstd', 1)
})

afterEach(() => {
  vi.restoreAllMocks()
})

it('loads ZSTD only when a ZSTD frame arrives, on a transport that asked for LZ4', async () => {
  const lz4Only = await loadCompression('lz4', 1)
  expect(lz4Only.zstd).toBeUndefined()
  // The server picks the method of its answers from this setting, whatever the client sends.
  const native = nativeOn(server, { compression: 'lz4', settings: { network_compression_method: 'zstd' } })
  const zstdIn = vi.spyOn(codecs.zstd!, 'decompress')
  try {
    let sum = 0n
    for await (const block of await native.query('SELECT number FROM numbers(300000)')) {
      for (const value of block.columns[0]!.column.values() as BigUint64Array) sum += value
    }
    expect(sum).toBe(44_999_850_000n)
    expect(zstdIn.mock.calls.length).toBeGreaterThan(0)
  } finally {
    await native.close()
  }
})

describe.each(['lz4', 'zstd', 'none'] as const)('compression %s', (compression: CompressionMethod) => {
  it('streams a result, takes an insert with an external table, and uses the method both ways', async () => {
    // Received frames decompress through `decompressInto` where the codec has it (LZ4 in
    // WebAssembly, into the receive arena), else through `decompress`.
    const inbound = (codec: CompressionCodec) =>
      codec.decompressInto ? vi.spyOn(codec, 'decompressInto') : vi.spyOn(codec, 'decompress')
    const spies = {
      lz4: { in: inbound(codecs.lz4!), out: vi.spyOn(codecs.lz4!, 'compress') },
      zstd: { in: inbound(codecs.zstd!), out: vi.spyOn(codecs.zstd!, 'compress') },
    }
    const native = nativeOn(server, { compression })
    const table = uniqueName(`native_${compression}`)
    try {
      let rows = 0
      let sum = 0n
      for await (const block of await native.query(
        'SELECT number, toString(number) AS s FROM numbers(300000)',
      )) {
        rows += block.rows
        for (const value of block.columns[0]!.column.values() as BigUint64Array) sum += value
      }
      expect([rows, sum]).toEqual([300_000, 44_999_850_000n])

      await native.command(`CREATE TABLE ${table} (n UInt32, s String) ENGINE = Memory`)
      const n = Uint32Array.from({ length: 100_000 }, (_, i) => i)
      const result = await native.insert(table, () => [
        { rows: n.length, columns: [n, Array.from(n, (i) => `v${i}`)] },
      ])
      expect(result.rowsWritten).toBe(100_000)
      const joined = await firstValue(native, `SELECT count() FROM ${table} WHERE s IN (SELECT s FROM ext)`, {
        externalTables: [
          { name: 'ext', columns: [{ name: 's', type: 'String' }], data: { s: ['v1', 'v99999', 'nope'] } },
        ],
      })
      expect(joined).toBe(2n)
      expect(await firstValue(native, `SELECT sum(n) FROM ${table}`)).toBe(4_999_950_000n)

      const used = (method: 'lz4' | 'zstd') => ({
        in: spies[method].in.mock.calls.length > 0,
        out: spies[method].out.mock.calls.length > 0,
      })
      expect({ lz4: used('lz4'), zstd: used('zstd') }).toEqual({
        lz4: { in: compression === 'lz4', out: compression === 'lz4' },
        zstd: { in: compression === 'zstd', out: compression === 'zstd' },
      })
    } finally {
      await native.command(`DROP TABLE IF EXISTS ${table}`)
      await native.close()
    }
  })
})
