import {
  type ColumnLayout,
  type ColumnMeta,
  canonicalTypeName,
  describeCodec,
  type NativeBlock,
  type TypeNode,
} from '@clickwire/protocol'
import { Field, makeData, RecordBatch, Schema, Struct, Table, Utf8 } from 'apache-arrow'
import { utf8Data } from './arrow-buffers.js'
import { compositePlan } from './arrow-composite-plans.js'
import { type ArrowPlan, jsonText } from './arrow-plan-support.js'
import { scalarPlan } from './arrow-scalar-plans.js'

/**
 * The Arrow plan of a ClickHouse type (see the README's Arrow table for the choices), made
 * from the layout its codec declares. Types without an Arrow counterpart become Utf8 JSON
 * text of their values.
 *
 * @param timezone the server's time zone, for DateTime columns that name none
 */
export function arrowPlan(type: TypeNode, timezone: string): ArrowPlan {
  const resolve = (layout: ColumnLayout): ArrowPlan => {
    const family = canonicalTypeName(layout.type.name)
    return scalarPlan(layout, family, timezone) ?? compositePlan(layout, family, resolve) ?? textPlan()
  }
  return resolve(describeCodec(type).layout)
}

function textPlan(): ArrowPlan {
  const type = new Utf8()
  return {
    type,
    nullable: true,
    data(column) {
      const values = column.values()
      const texts = Array.from(values, (value) => (value == null ? null : jsonText(value)))
      return utf8Data(texts, type)
    },
  }
}

/**
 * The Arrow schema of a result and the conversion of its blocks into record batches. Made
 * once per result, so that every batch shares the same types (dictionary ids included).
 */
export class ArrowConverter {
  readonly schema: Schema
  private readonly plans: readonly ArrowPlan[]

  constructor(meta: readonly ColumnMeta[], timezone: string) {
    this.plans = meta.map((column) => arrowPlan(column.typeNode, timezone))
    this.schema = new Schema(
      meta.map(
        (column, index) => new Field(column.name, this.plans[index]!.type, this.plans[index]!.nullable),
      ),
    )
  }

  /**
   * One block as a record batch. Numeric columns share the block's typed arrays (no copy);
   * the rest is built in one pass per column.
   */
  recordBatch(block: NativeBlock): RecordBatch {
    const children = block.columns.map((column, index) => this.plans[index]!.data(column.column))
    const data = makeData({
      type: new Struct(this.schema.fields),
      length: block.rows,
      nullCount: 0,
      children,
    })
    return new RecordBatch(this.schema, data)
  }

  /** A table of record batches of this result; with none, an empty table that still has the schema. */
  table(batches: readonly RecordBatch[]): Table {
    return new Table(this.schema, [...batches])
  }
}

/** The server-ArrowStream reading, loaded with the rest of the Arrow code (arrow-loader.ts). */
export { serverArrowTable } from './arrow-server-stream.js'
