// Helpers for the packet unit tests: exact bytes, round trip through the dispatchers, and a
// decode of every strict prefix (truncation at every offset). Not part of the published build.
import { expect } from 'vitest'
import { ProtocolError } from '../../src/errors/protocol-error.js'
import { ByteReader } from '../../src/io/byte-reader.js'
import { ByteWriter } from '../../src/io/byte-writer.js'
import {
  type ClientPacket,
  type ClientPacketInput,
  decodeClientPacket,
  encodeClientPacket,
} from '../../src/packets/client-packet.js'
import { decodeServerPacket, encodeServerPacket, type ServerPacket } from '../../src/packets/server-packet.js'
import { fromHex, hex } from './codec-checks.js'

export { fromHex, hex }

/** The bytes `write` produces. */
export function bytesOf(write: (writer: ByteWriter) => void): Uint8Array {
  const writer = new ByteWriter(16)
  write(writer)
  return writer.copy()
}

/** Decodes all of `bytes`, which must be complete and hold nothing else. */
export function decodeAll<T>(bytes: Uint8Array, decode: (reader: ByteReader) => T | undefined): T {
  const reader = new ByteReader(bytes)
  const value = decode(reader)
  expect(reader.missing, 'reader ran short on complete input').toBe(0)
  expect(value, 'decoder returned undefined on complete input').not.toBeUndefined()
  expect(reader.offset, 'bytes left over after the packet').toBe(bytes.length)
  return value as T
}

/**
 * Decoding every strict prefix of `bytes` must return undefined with `missing` beyond the
 * cut, or throw a ProtocolError; never anything else, never a value.
 */
export function expectTruncationsReported(bytes: Uint8Array, decode: (reader: ByteReader) => unknown): void {
  for (let cut = 0; cut < bytes.length; cut++) {
    const reader = new ByteReader(bytes.subarray(0, cut))
    let value: unknown
    try {
      value = decode(reader)
    } catch (error) {
      expect(ProtocolError.isInstance(error), `cut at ${cut}: ${String(error)}`).toBe(true)
      continue
    }
    expect(value, `cut at ${cut} of ${bytes.length}: decoded a value from a prefix`).toBeUndefined()
    expect(reader.missing, `cut at ${cut} of ${bytes.length}: not reported short`).toBeGreaterThan(cut)
  }
}

/** Hex with spaces and line breaks removed, for readable expectations. */
function clean(text: string): string {
  return text.replace(/\s+/g, '')
}

/**
 * A server packet four ways: its exact bytes (when given), decoding them back to `expected`
 * (default: the packet itself), and every truncation. Returns the bytes.
 */
export function checkServerPacket(
  packet: ServerPacket,
  revision: number,
  bytes?: string,
  expected: unknown = packet,
): Uint8Array {
  const encoded = bytesOf((writer) => encodeServerPacket(writer, packet, revision))
  if (bytes !== undefined) expect(hex(encoded)).toBe(clean(bytes))
  expect(decodeAll(encoded, (reader) => decodeServerPacket(reader, revision))).toEqual(expected)
  expectTruncationsReported(encoded, (reader) => decodeServerPacket(reader, revision))
  return encoded
}

/** The same for a client packet; `expected` is what decoding gives back (default: the input). */
export function checkClientPacket(
  packet: ClientPacketInput,
  revision: number,
  bytes?: string,
  expected: ClientPacket | ClientPacketInput = packet,
): Uint8Array {
  const encoded = bytesOf((writer) => encodeClientPacket(writer, packet, revision))
  if (bytes !== undefined) expect(hex(encoded)).toBe(clean(bytes))
  expect(decodeAll(encoded, (reader) => decodeClientPacket(reader, revision))).toEqual(expected)
  expectTruncationsReported(encoded, (reader) => decodeClientPacket(reader, revision))
  return encoded
}

/** Hex of a string's UTF-8 bytes with its VarUInt length first (strings shorter than 128 bytes). */
export function str(text: string): string {
  const bytes = new TextEncoder().encode(text)
  if (bytes.length >= 128) throw new Error('str() is for short strings')
  return bytes.length.toString(16).padStart(2, '0') + hex(bytes)
}
