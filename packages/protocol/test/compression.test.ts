// Compressed frames against real ClickHouse: the 18.16 server accepts the frames clickwire
// writes (HTTP `decompress=1`), and clickwire reads the frames ClickHouse writes into
// MergeTree column files (18.16: LZ4; chdb 26.7: LZ4, LZ4HC, ZSTD, NONE).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { NativeBlockWriter } from '../src/blocks/native-block-writer.js'
import { cityhash128 } from '../src/compression/cityhash.js'
import type { CompressionCodecs } from '../src/compression/compression-codec.js'
import { nodeCompression } from '../src/compression/compression-node.js'
import { decompressFrames, FrameDecoder } from '../src/compression/frame-reader.js'
import { compressFrames, FrameWriter } from '../src/compression/frame-writer.js'
import { ByteWriter } from '../src/io/byte-writer.js'
import { defaultValueMapping } from '../src/types/value-mapping.js'

const server = inject('clickhouse')
let codecs: CompressionCodecs

beforeAll(async () => {
  codecs = await nodeCompression()
})

async function http(query: string, body?: Uint8Array | string, params = ''): Promise<string> {
  const url = `${server.httpUrl}/?query=${encodeURIComponent(query)}${params}`
  const response = await fetch(url, { method: 'POST', body: body ?? '' })
  const text = await response.text()
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${text}`)
  return text
}

/** UInt64 values first..first+count-1 as little-endian bytes. */
function uint64Bytes(first: number, count: number): Uint8Array {
  const values = new BigUint64Array(count)
  for (let i = 0; i < count; i++) values[i] = BigInt(first + i)
  return new Uint8Array(values.buffer)
}

/** [method byte, uncompressed size] of each frame in a stream. */
function frameHeaders(stream: Uint8Array): [number, number][] {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength)
  const headers: [number, number][] = []
  for (let at = 0; at < stream.length; at += 16 + view.getUint32(at + 17, true)) {
    headers.push([stream[at + 16]!, view.getUint32(at + 21, true)])
  }
  return headers
}

function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  if (actual.length !== expected.length) return false
  for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) return false
  return true
}

/** Decodes `stream` twice: whole, and pushed in pseudo-random chunks of 1 byte to 300 KB. */
function decodeBothWays(stream: Uint8Array): Uint8Array {
  const whole = decompressFrames(stream, codecs)
  const decoder = new FrameDecoder(codecs)
  const parts: Uint8Array[] = []
  let seed = stream.length
  for (let at = 0; at < stream.length; ) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    const size = seed % 7 === 0 ? 1 + (seed % 30) : 1 + (seed % 300_000)
    parts.push(...decoder.push(stream.subarray(at, at + size)))
    at += size
  }
  decoder.finish()
  const streamed = new Uint8Array(whole.length)
  let offset = 0
  for (const part of parts) {
    streamed.set(part, offset)
    offset += part.length
  }
  expect(offset).toBe(whole.length)
  expect(sameBytes(streamed, whole)).toBe(true)
  return whole
}

describe('frames written by clickwire, read by ClickHouse 18.16', () => {
  beforeAll(async () => {
    await http('DROP TABLE IF EXISTS compression_in')
    await http('CREATE TABLE compression_in (id UInt64, name String) ENGINE = Memory')
  })

  it.each(['lz4', 'zstd', 'none'] as const)(
    'accepts a multi-frame %s TSV body with decompress=1',
    async (method) => {
      await http('TRUNCATE TABLE compression_in')
      const rows = Array.from({ length: 120_000 }, (_, i) => `${i}\tname-${i % 1000}-${'x'.repeat(i % 7)}\n`)
      const tsv = new TextEncoder().encode(rows.join(''))
      const body = compressFrames(tsv, method, codecs)
      expect(frameHeaders(body).length).toBeGreaterThan(1)
      await http('INSERT INTO compression_in FORMAT TabSeparated', body, '&decompress=1')
      const back = await http('SELECT id, name FROM compression_in ORDER BY id FORMAT TabSeparated')
      expect(back).toBe(rows.join(''))
    },
  )

  it('accepts a Native body encoded straight into a FrameWriter', async () => {
    await http('TRUNCATE TABLE compression_in')
    const output = new ByteWriter()
    const frames = new FrameWriter(output, codecs, { method: 'lz4', frameSize: 64 * 1024 })
    const context = { revision: 0, timezone: 'UTC', mapping: defaultValueMapping }
    const rows = 50_000
    const ids = new BigUint64Array(rows).map((_, i) => BigInt(i * 3))
    const names = Array.from({ length: rows }, (_, i) => `n${i}`)
    new NativeBlockWriter(context, false).write(
      frames.input,
      [
        { name: 'id', type: 'UInt64', values: ids },
        { name: 'name', type: 'String', values: names },
      ],
      rows,
    )
    frames.flush()
    await http('INSERT INTO compression_in FORMAT Native', output.finish(), '&decompress=1')
    const summary = await http(
      "SELECT count(), sum(id), countIf(name = concat('n', toString(intDiv(id, 3)))) FROM compression_in",
    )
    expect(summary).toBe(`${rows}\t${3 * ((rows * (rows - 1)) / 2)}\t${rows}\n`)
  })

  it('rejects a frame whose checksum does not match', async () => {
    const body = compressFrames(new TextEncoder().encode('1\tone\n'), 'lz4', codecs)
    body[body.length - 1] = body[body.length - 1]! ^ 0xff
    await expect(
      http('INSERT INTO compression_in FORMAT TabSeparated', body, '&decompress=1'),
    ).rejects.toThrow(/Checksum doesn't match/)
  })
})

describe(`frames written by the harness's ClickHouse (${server.version}) into MergeTree files`, () => {
  const rows = 300_000

  beforeAll(async () => {
    await http('DROP TABLE IF EXISTS compression_parts')
    // 26.x writes small parts as one compact data.bin: ask for a file per column, as 18.16 always does.
    const wide = server.generation === 'modern' ? ' SETTINGS min_bytes_for_wide_part = 0' : ''
    await http(`CREATE TABLE compression_parts (id UInt64, s String) ENGINE = MergeTree ORDER BY id${wide}`)
    await http(
      `INSERT INTO compression_parts SELECT number, concat('row-', toString(number)) FROM system.numbers LIMIT ${rows}`,
    )
    await http('OPTIMIZE TABLE compression_parts FINAL')
  })

  async function columnFile(column: string): Promise<Uint8Array> {
    const parts = await http(
      "SELECT path FROM system.parts WHERE database = 'default' AND table = 'compression_parts' AND active",
    )
    const paths = parts.trim().split('\n')
    expect(paths).toHaveLength(1)
    // The server's <path> is `${dir}/data/`. 18.16 keeps tables in its data/ folder by name;
    // 26.x's Atomic databases keep them in store/<first 3 of the uuid>/<uuid>/.
    const folder =
      server.generation === 'modern'
        ? 'store/([0-9a-f]{3})/\\1[0-9a-f]{5}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
        : 'data/default/compression_parts'
    expect(paths[0]).toMatch(new RegExp(`^${server.dir}/data/${folder}/all_`))
    return new Uint8Array(await readFile(join(paths[0]!, column)))
  }

  it.skipIf(server.dir === undefined)(
    'decodes the LZ4 frames of a UInt64 column to the exact values',
    async () => {
      const file = await columnFile('id.bin')
      const headers = frameHeaders(file)
      expect(headers.length).toBeGreaterThan(1)
      expect(headers.every(([method]) => method === 0x82)).toBe(true)
      // The first frame's stored checksum is CityHash128 v1.0.2 of the rest of that frame.
      const firstLength = 16 + new DataView(file.buffer, file.byteOffset).getUint32(17, true)
      expect(cityhash128(file, 16, firstLength)).toEqual(file.subarray(0, 16))
      expect(sameBytes(decodeBothWays(file), uint64Bytes(0, rows))).toBe(true)
    },
  )

  it.skipIf(server.dir === undefined)(
    server.generation === 'modern'
      ? 'decodes the LZ4 frames of a String column: 26.x stores the chars in s.bin, the lengths in s.size.bin'
      : 'decodes the LZ4 frames of a String column',
    async () => {
      const expected = new ByteWriter(rows * 12)
      if (server.generation !== 'modern') {
        for (let i = 0; i < rows; i++) expected.string(`row-${i}`)
        expect(sameBytes(decodeBothWays(await columnFile('s.bin')), expected.finish())).toBe(true)
        return
      }
      // string_serialization_version = with_size_stream, 26.x's default for MergeTree.
      const sizes = new ByteWriter(rows * 8)
      for (let i = 0; i < rows; i++) {
        const text = `row-${i}`
        expected.raw(new TextEncoder().encode(text))
        sizes.u64Number(text.length)
      }
      expect(sameBytes(decodeBothWays(await columnFile('s.bin')), expected.finish())).toBe(true)
      expect(sameBytes(decodeBothWays(await columnFile('s.size.bin')), sizes.finish())).toBe(true)
    },
  )
})

describe('frames written by ClickHouse 26.7 (chdb) into MergeTree files', () => {
  const rows = 300_000
  let dir: string
  let session: {
    queryAsync(sql: string, options?: { format?: string }): Promise<{ text(): string }>
    cleanup(): void
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clickwire-chdb-frames-'))
    const { Session } = createRequire(import.meta.url)('chdb')
    session = new Session(dir)
  })

  afterAll(async () => {
    session?.cleanup()
    await rm(dir, { recursive: true, force: true })
  })

  it.each([
    ['LZ4', 0x82],
    ['LZ4HC(9)', 0x82],
    ['ZSTD(1)', 0x90],
    ['ZSTD(9)', 0x90],
    ['NONE', 0x02],
  ] as const)('decodes a UInt64 column with CODEC(%s)', async (codec, methodByte) => {
    const table = `frames_${codec.replace(/\W/g, '_')}`
    await session.queryAsync(
      `CREATE TABLE ${table} (id UInt64 CODEC(${codec})) ENGINE = MergeTree ORDER BY id ` +
        'SETTINGS min_bytes_for_wide_part = 0',
    )
    await session.queryAsync(`INSERT INTO ${table} SELECT number + 7 FROM numbers(${rows})`)
    await session.queryAsync(`OPTIMIZE TABLE ${table} FINAL`)
    const paths = (
      await session.queryAsync(`SELECT path FROM system.parts WHERE table = '${table}' AND active`, {
        format: 'TSV',
      })
    )
      .text()
      .trim()
      .split('\n')
    expect(paths).toHaveLength(1)
    const file = new Uint8Array(await readFile(join(paths[0]!, 'id.bin')))
    const headers = frameHeaders(file)
    expect(headers.length).toBeGreaterThan(1)
    expect(headers.every(([method]) => method === methodByte)).toBe(true)
    expect(sameBytes(decodeBothWays(file), uint64Bytes(7, rows))).toBe(true)
  })
})
