// The codecs of the rarer families load on demand. This file imports no test support (which
// loads them up front), so each test here starts from a process that has not loaded them.
import { describe, expect, it } from 'vitest'
import { rowObjects } from '../blocks/block-rows.js'
import { NativeStreamDecoder } from '../blocks/native-stream-decoder.js'
import { UsageError } from '../errors/usage-error.js'
import { parseType } from '../types/type-parser.js'
import { defaultValueMapping } from '../types/value-mapping.js'
import { codecFor, codecsReady, describeCodec, hasCodec } from './codec-registry.js'
import type { CodecContext } from './column-codec.js'
import { CodecsPendingError, codecsPending } from './rare-codec-loader.js'

const context: CodecContext = { revision: 0, timezone: 'UTC', mapping: defaultValueMapping }

/** A Native block (revision 0) of one `Time` column `t` holding 5 seconds, as ClickHouse writes it. */
const timeBlock = Uint8Array.from([1, 1, 1, 0x74, 4, ...new TextEncoder().encode('Time'), 5, 0, 0, 0])

describe('codecs loaded on demand', () => {
  it('decodes a block of a rare type once its codecs are loaded, never before', async () => {
    // Known by name from the start; made only once loaded.
    expect(hasCodec('Dynamic')).toBe(true)
    expect(codecsReady([parseType('Array(UInt8)'), parseType('Map(String, Int64)')])).toBeUndefined()
    expect(() => describeCodec(parseType('Nullable(Time)'))).toThrow(CodecsPendingError)
    expect(codecsReady([parseType('String'), parseType('Tuple(a Int8, b JSON)')])).toBeInstanceOf(Promise)
    let thrown: unknown
    try {
      codecFor(parseType('Array(Dynamic)'), context)
    } catch (error) {
      thrown = error
    }
    expect(UsageError.isInstance(thrown)).toBe(true)
    expect((thrown as Error).message).toBe(
      'the codec of ClickHouse type Dynamic is loaded on demand: await loadCodecs() first',
    )
    expect(codecsPending(thrown)).toBeInstanceOf(Promise)
    expect(codecsPending(new UsageError('other'))).toBeUndefined()

    // What the transports do: decode, await the load when told to, decode the same bytes again.
    const decoder = new NativeStreamDecoder(context)
    decoder.push(timeBlock)
    let loading: Promise<void> | undefined
    try {
      decoder.next(true)
    } catch (error) {
      loading = codecsPending(error)
    }
    expect(loading).toBeInstanceOf(Promise)
    await loading
    const block = decoder.next(true)
    expect(block && rowObjects(block)).toEqual([{ t: '00:00:05' }])
    expect(decoder.next(true)).toBeUndefined()
    decoder.finish()

    expect(codecsReady([parseType('Array(Dynamic)')])).toBeUndefined()
    expect(describeCodec(parseType('Nullable(Time)')).tsType()).toBe('string | null')
    expect(codecFor(parseType('Variant(String, UInt8)'), context).type.name).toBe('Variant')
  })
})
