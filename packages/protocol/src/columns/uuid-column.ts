import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { valueError } from './fixed-width.js'

/** `'00'` to `'ff'`. */
export const hexBytes: readonly string[] = Array.from({ length: 256 }, (_, i) =>
  i.toString(16).padStart(2, '0'),
)

/** ASCII codes of the two hex digits of each byte value, at `2 * byte` and `2 * byte + 1`. */
const hexCodes = new Uint8Array(512)
for (let byte = 0; byte < 256; byte++) {
  hexCodes[2 * byte] = hexBytes[byte]!.charCodeAt(0)
  hexCodes[2 * byte + 1] = hexBytes[byte]!.charCodeAt(1)
}

/**
 * UUID layout: two UInt64 halves, high half first, each little-endian. So the text's
 * first 16 hex digits are bytes 7..0 and the last 16 are bytes 15..8; -1 marks a dash.
 */
const textOrder = [7, 6, 5, 4, -1, 3, 2, -1, 1, 0, -1, 15, 14, -1, 13, 12, 11, 10, 9, 8]
const textCodes: number[] = new Array<number>(36).fill(45)

// One String.fromCharCode over 36 codes makes one flat string: about 5x faster than
// concatenating 20 pieces (measured on Node 20).
function uuidText(bytes: Uint8Array, at: number): string {
  const codes = textCodes
  let out = 0
  for (let i = 0; i < 20; i++) {
    const index = textOrder[i]!
    if (index < 0) {
      codes[out++] = 45
      continue
    }
    const byte = bytes[at + index]!
    codes[out++] = hexCodes[2 * byte]!
    codes[out++] = hexCodes[2 * byte + 1]!
  }
  return String.fromCharCode.apply(null, codes)
}

/** A decoded UUID column: 16 bytes per value as received; lowercase canonical text per row on demand. */
export class UuidColumn implements Column<string> {
  constructor(
    readonly type: TypeNode,
    /** 16 bytes per value, in the wire layout. */
    readonly bytes: Uint8Array,
  ) {}

  get length(): number {
    return this.bytes.length >> 4
  }

  get(row: number): string {
    return uuidText(this.bytes, row * 16)
  }

  values(): string[] {
    const rows = this.length
    const texts = new Array<string>(rows)
    for (let row = 0; row < rows; row++) texts[row] = uuidText(this.bytes, row * 16)
    return texts
  }

  storage(): ColumnStorage {
    return { kind: 'fixed-bytes', data: this.bytes }
  }
}

const uuidInput = /^\s*\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?\s*$/i

function hexValue(code: number): number {
  return code <= 57 ? code - 48 : (code | 0x20) - 87
}

/**
 * Reads and writes UUID columns. Writes UUID text (any case, with or without dashes or
 * braces).
 */
export function uuidCodec(type: TypeNode): ColumnCodec<string> {
  return {
    type,
    layout: { kind: 'fixed-bytes', type, width: 16 },
    insertShape: 'scalar',
    tsType: () => 'string',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): UuidColumn {
      return new UuidColumn(type, reader.take(rows * 16))
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      writer.ensure(rows * 16)
      const out = writer.bytes
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        const match = typeof value === 'string' ? uuidInput.exec(value) : null
        if (!match) throw valueError('UUID', row, value, 'expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx')
        const hex = match[1]! + match[2]! + match[3]! + match[4]! + match[5]!
        const at = writer.offset
        // Byte i of the text (0-15) goes to position 7 - i in the first half, 23 - i in the second.
        for (let i = 0; i < 16; i++) {
          const byte = hexValue(hex.charCodeAt(2 * i)) * 16 + hexValue(hex.charCodeAt(2 * i + 1))
          out[at + (i < 8 ? 7 - i : 23 - i)] = byte
        }
        writer.offset = at + 16
      }
    },
  }
}
