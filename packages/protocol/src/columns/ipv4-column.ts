import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { fixedWidthBytes, valueError, writeTypedArray } from './fixed-width.js'
import { ipv4Text, parseIPv4 } from './ip-text.js'

/** A decoded IPv4 column: the UInt32 addresses as received; `a.b.c.d` per row on demand. */
export class IPv4Column implements Column<string> {
  constructor(
    readonly type: TypeNode,
    /** Addresses as UInt32, `a` the most significant byte. */
    readonly data: Uint32Array,
  ) {}

  get length(): number {
    return this.data.length
  }

  get(row: number): string {
    return ipv4Text(this.data[row]!)
  }

  values(): string[] {
    const rows = this.data.length
    const texts = new Array<string>(rows)
    for (let row = 0; row < rows; row++) texts[row] = ipv4Text(this.data[row]!)
    return texts
  }

  storage(): ColumnStorage {
    return { kind: 'fixed', data: this.data }
  }
}

/**
 * Reads and writes IPv4 columns: the address as a little-endian UInt32. Writes dotted-quad
 * text, a UInt32 number, or a Uint32Array as is.
 */
export function ipv4Codec(type: TypeNode): ColumnCodec<string> {
  return {
    type,
    layout: { kind: 'fixed', type, width: 4, array: 'Uint32' },
    insertShape: 'scalar',
    tsType: () => 'string',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): IPv4Column {
      const bytes = fixedWidthBytes(reader, rows, 4)
      return new IPv4Column(type, bytes ? new Uint32Array(bytes[0], bytes[1], rows) : new Uint32Array(0))
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      if (input instanceof Uint32Array) {
        writeTypedArray(writer, input, rows, 4)
        return
      }
      writer.ensure(rows * 4)
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        const address =
          typeof value === 'string'
            ? parseIPv4(value.trim())
            : typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff
              ? value
              : undefined
        if (address === undefined) throw valueError('IPv4', row, value, 'expected a.b.c.d or a UInt32')
        writer.u32(address)
      }
    },
  }
}
