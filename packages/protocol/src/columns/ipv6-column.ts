import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { valueError } from './fixed-width.js'
import { ipv6Text, parseIPv6 } from './ip-text.js'

/** A decoded IPv6 column: 16 bytes per address in network order as received; text per row on demand. */
export class IPv6Column implements Column<string> {
  constructor(
    readonly type: TypeNode,
    /** 16 bytes per address, network (big-endian) order. */
    readonly bytes: Uint8Array,
  ) {}

  get length(): number {
    return this.bytes.length >> 4
  }

  get(row: number): string {
    return ipv6Text(this.bytes, row * 16)
  }

  values(): string[] {
    const rows = this.length
    const texts = new Array<string>(rows)
    for (let row = 0; row < rows; row++) texts[row] = ipv6Text(this.bytes, row * 16)
    return texts
  }

  storage(): ColumnStorage {
    return { kind: 'fixed-bytes', data: this.bytes }
  }
}

/**
 * Reads and writes IPv6 columns: 16 bytes in network order. Writes IPv6 text (IPv4 text
 * becomes `::ffff:a.b.c.d`) or a 16-byte Uint8Array.
 */
export function ipv6Codec(type: TypeNode): ColumnCodec<string> {
  return {
    type,
    layout: { kind: 'fixed-bytes', type, width: 16 },
    insertShape: 'bytes',
    tsType: () => 'string',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): IPv6Column {
      return new IPv6Column(type, reader.take(rows * 16))
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      writer.ensure(rows * 16)
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        if (value instanceof Uint8Array && value.length === 16) writer.raw(value)
        else if (typeof value === 'string' && parseIPv6(value.trim(), writer.bytes, writer.offset))
          writer.offset += 16
        else throw valueError('IPv6', row, value, 'expected IPv6 text or 16 bytes')
      }
    },
  }
}
