import { concatBytes } from '@clickwire/testing'
// Helpers for the compressed-frame tests. Not part of the published build.
import { expect } from 'vitest'
import type { CompressionCodecs } from '../../src/compression/compression-codec.js'
import { FrameDecoder } from '../../src/compression/frame-reader.js'
import { ProtocolError } from '../../src/errors/protocol-error.js'

/** Real frames written by ClickHouse 26.7 (chdb) into MergeTree column files. */
export const clickhouseFrames = {
  /** UInt8 column [1, 2, 3] with CODEC(NONE). */
  none: '13c52dc8194d3f6c25e130c1c54003c3 02 0c000000 03000000 010203',
  /** UInt64 column [10, 20, 30] with CODEC(LZ4). */
  lz4: '52a6e0fd852bdc30fe58440f9553f430 82 1c000000 18000000 220a0001001214070090001e00000000000000',
  /** String characters "abcde" with CODEC(ZSTD(1)). */
  zstd: '35bc86cb248f07efe12262010d739b8e 90 17000000 05000000 28b52ffd20052900006162636465',
}

/** Feeds `chunks` to a fresh decoder and returns everything it decoded, concatenated. */
export function decodeChunks(codecs: CompressionCodecs, chunks: readonly Uint8Array[]): Uint8Array {
  const decoder = new FrameDecoder(codecs)
  const out: Uint8Array[] = []
  for (const chunk of chunks) out.push(...decoder.push(chunk))
  decoder.finish()
  return concatBytes(...out)
}

/** Runs `decode` and expects a ProtocolError whose message matches `message`. */
export function expectProtocolError(decode: () => unknown, message: RegExp): void {
  let thrown: unknown
  try {
    decode()
  } catch (error) {
    thrown = error
  }
  expect(ProtocolError.isInstance(thrown), `expected a ProtocolError, got ${String(thrown)}`).toBe(true)
  expect((thrown as Error).message).toMatch(message)
}

/** Byte equality that stays fast for megabytes (deep equality walks element by element). */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array, label = ''): void {
  let same = actual.length === expected.length
  for (let i = 0; same && i < actual.length; i++) same = actual[i] === expected[i]
  if (!same) expect(actual, label).toEqual(expected)
}
