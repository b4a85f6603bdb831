import type { Column } from '../columns/column-codec.js'
import type { TypeNode } from '../types/type-node.js'

/** Block-level flags sent with blocks from revision 51903 on. */
export interface BlockInfo {
  /** Rows of a `GROUP BY ... WITH TOTALS` overflow (`max_rows_to_group_by` reached). */
  readonly isOverflows: boolean
  /** Two-level aggregation bucket, -1 when none. */
  readonly bucketNumber: number
}

export const defaultBlockInfo: BlockInfo = Object.freeze({ isOverflows: false, bucketNumber: -1 })

/** One named, typed column of a block. */
export interface BlockColumn {
  readonly name: string
  /** The type as the server printed it. */
  readonly typeName: string
  readonly type: TypeNode
  readonly column: Column
}

/** A decoded Native block: columns of equal length. */
export interface NativeBlock {
  readonly info: BlockInfo
  readonly rows: number
  readonly columns: readonly BlockColumn[]
}
