import {
  ByteWriter,
  ClickHouseError,
  ConnectionError,
  defaultValueMapping,
  emptyProgress,
  ProtocolError,
  parseTypeCached,
  rowObjects,
} from '@clickwire/protocol'
import { NativeBlockWriter } from '@clickwire/protocol/insert'
import { concatBytes } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import type { BodyReader } from './http-backend.js'
import { NativeResult } from './http-native-result.js'
import { RawResult } from './raw-result.js'

const context = { revision: 0, timezone: 'UTC', mapping: defaultValueMapping }
const encoder = new TextEncoder()

/** Native bytes of `blocks` blocks of `rows` rows: n UInt64, s String. */
function nativeBlocks(blocks: number, rows: number, first = 0): Uint8Array {
  const writer = new ByteWriter()
  const blockWriter = new NativeBlockWriter(context, false)
  for (let b = 0; b < blocks; b++) {
    const n = Array.from({ length: rows }, (_, i) => BigInt(first + b * rows + i))
    blockWriter.write(
      writer,
      [
        { name: 'n', type: 'UInt64', values: n },
        { name: 's', type: 'String', values: n.map((v) => `v${v}`) },
      ],
      rows,
    )
  }
  return writer.copy()
}

/** A body that delivers `bytes` in chunks of `size`, then ends cleanly or with `failure`. */
function body(bytes: Uint8Array, size: number, failure?: Error): BodyReader & { cancelled: boolean } {
  let at = 0
  const reader = {
    cancelled: false,
    async read() {
      if (at < bytes.length) {
        const chunk = bytes.slice(at, at + size)
        at += size
        return chunk
      }
      if (failure) throw failure
      return undefined
    },
    cancel() {
      reader.cancelled = true
    },
  }
  return reader
}

function setup(reader: BodyReader, tag?: string) {
  return {
    queryId: 'q1',
    body: reader,
    context,
    exceptionTag: tag,
    progress: emptyProgress,
    stop: async () => {},
    bodyError: (cause: unknown, detail: string) =>
      new ConnectionError(`${detail}: ${String(cause)}`, { cause }),
    settle: () => {},
  }
}

async function collect(result: NativeResult): Promise<{ rows: unknown[]; error: unknown }> {
  const rows: unknown[] = []
  try {
    for await (const block of result) rows.push(...rowObjects(block))
    return { rows, error: undefined }
  } catch (error) {
    return { rows, error }
  }
}

const text1816 =
  "Code: 395, e.displayText() = DB::Exception: Value passed to 'throwIf' function is non zero, e.what() = DB::Exception\n"
const textModern =
  "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero: while executing 'FUNCTION throwIf(equals(number, 3)) UInt8'. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 24.8.4.13 (official build))\n"
const tag = 'pqxkfmvznbsajtre'

function tagged(message: string): string {
  const length = encoder.encode(message).length
  return `\r\n__exception__\r\n${tag}\r\n${message}${length} ${tag}\r\n__exception__\r\n`
}

describe('NativeResult', () => {
  const data = nativeBlocks(3, 5)
  const expected = Array.from({ length: 15 }, (_, i) => ({ n: BigInt(i), s: `v${i}` }))

  it('decodes blocks split at any chunk size', async () => {
    for (const size of [1, 2, 7, 64, data.length]) {
      const { rows, error } = await collect(new NativeResult(setup(body(data, size))))
      expect(error, `chunks of ${size}`).toBeUndefined()
      expect(rows).toEqual(expected)
    }
  })

  it('raises the 18.16 exception text appended after blocks, in any chunking', async () => {
    for (const size of [1, 3, 50, 10_000]) {
      const { rows, error } = await collect(new NativeResult(setup(body(concatBytes(data, text1816), size))))
      expect(rows, `chunks of ${size}`).toEqual(expected)
      expect(ClickHouseError.isInstance(error)).toBe(true)
      expect((error as ClickHouseError).code).toBe(395)
      expect((error as ClickHouseError).queryId).toBe('q1')
    }
  })

  it('raises the modern text form and the exception at the very start', async () => {
    const late = await collect(new NativeResult(setup(body(concatBytes(data, textModern), 13))))
    expect(late.rows).toEqual(expected)
    expect((late.error as ClickHouseError).code).toBe(395)
    const early = await collect(new NativeResult(setup(body(encoder.encode(text1816), 4))))
    expect(early.rows).toEqual([])
    expect((early.error as ClickHouseError).code).toBe(395)
  })

  it('raises the __exception__ marker form of a body cut without its last chunk', async () => {
    const cut = new Error('other side closed')
    const bytes = concatBytes(data, `__exception__\r\n${textModern}`)
    const { rows, error } = await collect(new NativeResult(setup(body(bytes, 17, cut))))
    expect(rows).toEqual(expected)
    expect(ClickHouseError.isInstance(error)).toBe(true)
    expect((error as ClickHouseError).code).toBe(395)
    expect((error as Error).message).not.toContain('__exception__')
  })

  it('raises the tagged form (25.11+) with the tag from the header', async () => {
    const bytes = concatBytes(data, tagged(textModern))
    for (const size of [1, 9, 4096]) {
      const { rows, error } = await collect(
        new NativeResult(setup(body(bytes, size, new Error('terminated')), tag)),
      )
      expect(rows).toEqual(expected)
      expect((error as ClickHouseError).code).toBe(395)
      expect((error as ClickHouseError).codeName).toBe('FUNCTION_THROW_IF_VALUE_IS_NON_ZERO')
      expect((error as Error).message).toContain("Value passed to 'throwIf' function is non-zero")
      expect((error as Error).message).not.toContain(tag)
    }
  })

  it('reports a body cut inside a block as ProtocolError, a broken one as ConnectionError', async () => {
    const truncated = await collect(new NativeResult(setup(body(data.subarray(0, data.length - 3), 8))))
    expect(truncated.rows).toEqual(expected.slice(0, 10))
    expect(ProtocolError.isInstance(truncated.error)).toBe(true)
    const broken = await collect(
      new NativeResult(setup(body(data.subarray(0, data.length - 3), 8, new Error('socket hang up')))),
    )
    expect(broken.rows).toEqual(expected.slice(0, 10))
    expect(ConnectionError.isInstance(broken.error)).toBe(true)
    expect((broken.error as Error).message).toContain('socket hang up')
  })

  it('decodes a block that merely starts like an exception', async () => {
    // 67 columns ('C') of 111 rows ('o') would start with "Co"; a block of 67 UInt8 columns
    // named "de..." is not an exception: after "Code" no ": <digits>" follows.
    const writer = new ByteWriter()
    const columns = Array.from({ length: 67 }, (_, i) => ({
      name: `de_${i}`,
      type: 'UInt8',
      values: new Uint8Array(111).fill(i),
    }))
    new NativeBlockWriter(context, false).write(writer, columns, 111)
    const bytes = writer.copy()
    expect(String.fromCharCode(bytes[0]!, bytes[1]!, bytes[3]!, bytes[4]!)).toBe('Code')
    const result = new NativeResult(setup(body(bytes, 5)))
    let rows = 0
    for await (const block of result) rows += block.rows
    expect(rows).toBe(111)
  })

  it('knows the columns before iterating, and of an empty body none', async () => {
    const result = new NativeResult(setup(body(data, 10)))
    expect((await result.columns()).map((column) => column.name)).toEqual(['n', 's'])
    expect((await collect(result)).rows).toEqual(expected)
    const empty = new NativeResult(setup(body(new Uint8Array(0), 10)))
    expect(await empty.columns()).toEqual([])
  })

  it('gives an empty result the columns the server describes, and asks only then', async () => {
    const described = [{ name: 'x', type: 'UInt8', typeNode: parseTypeCached('UInt8') }]
    let asked = 0
    const describe = async () => {
      asked++
      return described
    }
    const empty = new NativeResult({ ...setup(body(new Uint8Array(0), 10)), describe })
    expect(await empty.columns()).toEqual(described)
    expect(await empty.columns()).toEqual(described)
    expect(asked).toBe(1)
    const full = new NativeResult({ ...setup(body(data, 10)), describe })
    expect((await full.columns()).map((column) => column.name)).toEqual(['n', 's'])
    expect(asked).toBe(1)
    const unknown = new NativeResult({
      ...setup(body(new Uint8Array(0), 10)),
      describe: async () => undefined,
    })
    expect(await unknown.columns()).toEqual([])
  })

  it('cancels the body when the consumer stops early', async () => {
    const reader = body(data, 10)
    let stopped = false
    const result = new NativeResult({ ...setup(reader), stop: async () => void (stopped = true) })
    for await (const _ of result) break
    expect(reader.cancelled).toBe(true)
    expect(stopped).toBe(true)
  })
})

describe('RawResult', () => {
  function raw(bytes: Uint8Array, size: number, failure?: Error, rawTag?: string) {
    return new RawResult({ ...setup(body(bytes, size, failure), rawTag), format: 'TSV', holdBackBytes: 512 })
  }
  async function read(result: RawResult): Promise<{ text: string; error: unknown }> {
    let text = ''
    const decoder = new TextDecoder()
    try {
      for await (const chunk of result) text += decoder.decode(chunk, { stream: true })
      return { text, error: undefined }
    } catch (error) {
      return { text, error }
    }
  }
  const tsv = Array.from({ length: 100 }, (_, i) => `${i}\tv${i}\n`).join('')

  it('passes a clean body through', async () => {
    expect(await read(raw(encoder.encode(tsv), 7))).toEqual({ text: tsv, error: undefined })
  })

  it('delivers the data before an 18.16 exception, never the exception text', async () => {
    const { text, error } = await read(raw(encoder.encode(tsv + text1816), 7))
    expect(text).toBe(tsv)
    expect((error as ClickHouseError).code).toBe(395)
  })

  it('raises the marker and tagged forms', async () => {
    const marker = await read(
      raw(encoder.encode(`${tsv}__exception__\r\n${textModern}`), 11, new Error('terminated')),
    )
    expect(marker.text).toBe(tsv)
    expect((marker.error as ClickHouseError).code).toBe(395)
    const withTag = await read(raw(encoder.encode(tsv + tagged(textModern)), 5, new Error('terminated'), tag))
    expect(withTag.text).toBe(tsv)
    expect((withTag.error as ClickHouseError).code).toBe(395)
  })

  it('reports a broken body as ConnectionError', async () => {
    const { text, error } = await read(raw(encoder.encode(tsv), 9, new Error('ECONNRESET')))
    expect(text).toBe(tsv)
    expect(ConnectionError.isInstance(error)).toBe(true)
  })
})
