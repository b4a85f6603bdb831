import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { TypeNode } from '../types/type-node.js'
import { type ColumnCodec, type ColumnInput, describeValue } from './column-codec.js'
import type { Column, ColumnStorage } from './column-layout.js'

/** A decoded Nothing column: every row is null. */
export class NothingColumn implements Column<null> {
  constructor(
    readonly type: TypeNode,
    readonly length: number,
  ) {}

  get(): null {
    return null
  }

  values(): null[] {
    return new Array<null>(this.length).fill(null)
  }

  storage(): ColumnStorage {
    return { kind: 'null' }
  }
}

/** The byte ClickHouse writes for each row of a Nothing column: the character '0'. */
const placeholder = 0x30

/**
 * Reads and writes Nothing columns (the type of `NULL` and `[]` literals, seen inside
 * Nullable and Array): one placeholder byte per row. Writes null or undefined.
 */
export function nothingCodec(type: TypeNode): ColumnCodec<null> {
  return {
    type,
    layout: { kind: 'null', type },
    insertShape: 'scalar',
    tsType: () => 'null',
    decodePrefix(): void {},
    decode(reader: ByteReader, rows: number): NothingColumn {
      reader.skip(rows)
      return new NothingColumn(type, rows)
    },
    encodePrefix(): void {},
    encode(writer: ByteWriter, input: ColumnInput, rows: number): void {
      writer.ensure(rows)
      for (let row = 0; row < rows; row++) {
        const value = input[row]
        if (value !== null && value !== undefined)
          throw new UsageError(`row ${row}: ${describeValue(value)} is not a valid Nothing (only null)`)
        writer.bytes[writer.offset++] = placeholder
      }
    },
  }
}
