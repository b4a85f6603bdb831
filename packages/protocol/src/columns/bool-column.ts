import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import type { ColumnCodec, ColumnInput } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'
import { valueError } from './fixed-width.js'

/** A decoded Bool column: one byte per row as received; any nonzero byte is true. */
export class BoolColumn implements Column<boolean> {
  constructor(
    readonly type: TypeNode,
    readonly data: Uint8Array,
  ) {}

  get length(): number {
    return this.data.length
  }

  get(row: number): boolean {
    return this.data[row] !== 0
  }

  values(): boolean[] {
    const rows = this.data.length
    const out = new Array<boolean>(rows)
    for (let row = 0; row < rows; row++) out[row] = this.data[row] !== 0
    return out
  }

  storage(): ColumnStorage {
    return { kind: 'boolean', data: this.data }
  }
}

/**
 * Reads and writes Bool columns: one byte, 0 or 1. Writes booleans, 0/1 (numbers or
 * bigints) and the strings `true`/`false`/`1`/`0`.
 */
export function boolCodec(type: TypeNode): ColumnCodec<boolean> {
  return {
    type,
    layout: { kind: 'boolean', type },
    insertShape: 'scalar',
    tsType: () => 'boolean',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): BoolColumn {
      return new BoolColumn(type, reader.take(rows))
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      writer.ensure(rows)
      const out = writer.bytes
      let offset = writer.offset
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        let bit: number
        if (value === true || value === 1 || value === 1n || value === 'true' || value === '1') bit = 1
        else if (value === false || value === 0 || value === 0n || value === 'false' || value === '0') bit = 0
        else throw valueError('Bool', row, value, 'expected a boolean, 0 or 1')
        out[offset++] = bit
      }
      writer.offset = offset
    },
  }
}
