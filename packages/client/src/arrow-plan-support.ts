import {
  type Column,
  type ColumnLayout,
  ProtocolError,
  type TypeNode,
  typeToString,
} from '@clickwire/protocol'
import type { Data, DataType } from 'apache-arrow'

/**
 * How one result column becomes Arrow data: its Arrow type, decided once from the
 * ClickHouse type so every record batch of a result has the same schema, and the
 * conversion of one block's decoded column.
 */
export interface ArrowPlan {
  readonly type: DataType
  /** Whether values can be null (a validity bitmap, a Null type or a union's null child). */
  readonly nullable: boolean
  data(column: Column): Data
}

/** Makes the plan of a nested layout (composite plans call it for their elements). */
export type PlanResolver = (layout: ColumnLayout) => ArrowPlan

/** The error for a decoded column of an unexpected kind: a bug, never the user's. */
export function mismatch(family: string, column: Column): ProtocolError {
  return new ProtocolError(
    `cannot build Arrow data for ${family}: the decoded column is a ${column.constructor.name} of ${typeToString(column.type)}`,
  )
}

export function numberArgument(type: TypeNode, index: number): number | undefined {
  const arg = type.args[index]
  return arg?.kind === 'number' ? arg.value : undefined
}

export function stringArgument(type: TypeNode, index: number): string | undefined {
  const arg = type.args[index]
  return arg?.kind === 'string' ? arg.value : undefined
}

/** JSON text of a decoded value: bigints as decimal strings, Maps as objects, bytes as arrays. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return String(item)
    if (item instanceof Map) return Object.fromEntries(item)
    if (item instanceof Uint8Array) return Array.from(item)
    return item
  })
}
