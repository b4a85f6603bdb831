// Helpers for the codec unit tests: every codec is checked four ways (exact bytes, round
// trip, zero rows, truncated input). Not part of the published build.
import './codecs-loaded.js'
import { expect } from 'vitest'
import { codecFor } from '../../src/columns/codec-registry.js'
import type { CodecContext, Column, ColumnInput } from '../../src/columns/column-codec.js'
import { ProtocolError } from '../../src/errors/protocol-error.js'
import { ByteReader } from '../../src/io/byte-reader.js'
import { ByteWriter } from '../../src/io/byte-writer.js'
import { Revision } from '../../src/packets/protocol-revision.js'
import { parseType } from '../../src/types/type-parser.js'
import { defaultValueMapping, type ValueMapping } from '../../src/types/value-mapping.js'

/**
 * The revision the codec tests' golden bytes were captured at: ClickHouse 26.7's 54488, the
 * last with VarUInt-prefixed Strings. The size-stream layout of 54492 has tests of its own
 * (string-blob-column.test.ts) with bytes from 26.9.
 */
export const goldenRevision = Revision.withInterserverCurrentRoles

export function context(
  mapping: Partial<ValueMapping> = {},
  timezone = 'UTC',
  revision: number = goldenRevision,
): CodecContext {
  return { revision, timezone, mapping: { ...defaultValueMapping, ...mapping } }
}

/** State prefix + data of one column, as Native writes them. */
export function encodeColumn(type: string, values: ColumnInput, ctx: CodecContext = context()): Uint8Array {
  const codec = codecFor(parseType(type), ctx)
  const writer = new ByteWriter(16)
  codec.encodePrefix(writer, values)
  codec.encode(writer, values, values.length)
  return writer.copy()
}

/** Decodes one column (prefix + data) from bytes that must be complete. */
export function decodeColumn(
  type: string,
  bytes: Uint8Array,
  rows: number,
  ctx: CodecContext = context(),
): Column {
  const codec = codecFor(parseType(type), ctx)
  const reader = new ByteReader(bytes)
  codec.decodePrefix(reader)
  const column = codec.decode(reader, rows)
  expect(reader.missing, 'reader ran short on complete input').toBe(0)
  expect(reader.offset, 'bytes left over after the column').toBe(bytes.length)
  return column
}

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

export function fromHex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '')
  return Uint8Array.from({ length: clean.length / 2 }, (_, i) =>
    Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16),
  )
}

/**
 * Decoding every strict prefix of a column's bytes must report missing input (or a
 * ProtocolError), never throw anything else, never loop, and never claim success.
 */
/**
 * Every cut for inputs up to 16 KiB; for larger ones (a 1 MB string) every cut near the
 * start and the end and a dense sample in between, since each cut re-decodes the input.
 */
function cutsOf(length: number): number[] {
  if (length <= 16_384) return Array.from({ length }, (_, cut) => cut)
  const cuts = new Set<number>()
  for (let cut = 0; cut < 4096; cut++) cuts.add(cut)
  for (let cut = length - 4096; cut < length; cut++) cuts.add(cut)
  for (let cut = 4096; cut < length - 4096; cut += 997) cuts.add(cut)
  return [...cuts].sort((a, b) => a - b)
}

export function expectTruncationsReported(
  type: string,
  bytes: Uint8Array,
  rows: number,
  ctx: CodecContext = context(),
) {
  for (const cut of cutsOf(bytes.length)) {
    const codec = codecFor(parseType(type), ctx)
    const reader = new ByteReader(bytes.subarray(0, cut))
    try {
      codec.decodePrefix(reader)
      if (!reader.short) codec.decode(reader, rows)
    } catch (error) {
      expect(ProtocolError.isInstance(error), `cut at ${cut}: ${String(error)}`).toBe(true)
      continue
    }
    expect(reader.missing, `cut at ${cut} of ${bytes.length}: not reported short`).toBeGreaterThan(cut)
  }
}

export interface CodecCase {
  type: string
  values: ColumnInput
  /** Exact expected bytes (hex) of prefix + data, when known from ClickHouse. */
  bytes?: string
  /** What decoding gives back, per row, when it differs from `values`. */
  decoded?: readonly unknown[]
  mapping?: Partial<ValueMapping>
  timezone?: string
  /** The stream's revision (default {@link goldenRevision}). */
  revision?: number
}

/** Exact bytes, round trip (per row and all rows), zero rows and truncations for one case. */
export function checkCodec(test: CodecCase): Column {
  const ctx = context(test.mapping, test.timezone, test.revision)
  const bytes = encodeColumn(test.type, test.values, ctx)
  if (test.bytes !== undefined) expect(hex(bytes)).toBe(test.bytes.replace(/\s+/g, ''))
  const column = decodeColumn(test.type, bytes, test.values.length, ctx)
  const expected = test.decoded ?? Array.from(test.values)
  expect(column.length).toBe(expected.length)
  expect(Array.from({ length: column.length }, (_, row) => column.get(row))).toEqual(expected)
  expect(Array.from(column.values())).toEqual(expected)
  const empty = encodeColumn(test.type, [], ctx)
  expect(decodeColumn(test.type, empty, 0, ctx).length).toBe(0)
  expectTruncationsReported(test.type, bytes, test.values.length, ctx)
  return column
}
