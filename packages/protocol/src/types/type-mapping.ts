import { codecFamilies, codecFamily, describeCodec } from '../columns/codec-registry.js'
import type { TypeNode } from './type-node.js'
import type { ValueMapping } from './value-mapping.js'

/**
 * From ClickHouse type to the TypeScript type of its JS values: read off the codecs, each
 * of which declares the TypeScript type of what it decodes (`ColumnCodec.tsType`). Codegen
 * prints exactly these types, so generated types cannot disagree with what a query returns.
 */

export { tsPropertyKey } from './ts-type-text.js'

/** The TypeScript type of a ClickHouse type under a value mapping. */
export interface MappedType {
  /** TypeScript type text, e.g. `string | null`, `Map<string, bigint[]>`. Unsupported parts are `unknown`. */
  readonly tsType: string
  /** One message per part clickwire cannot read or write; empty when the whole type is supported. */
  readonly unsupported: readonly string[]
}

/** One family clickwire reads and writes. */
export interface TypeFamily {
  /** Canonical family name, as ClickHouse prints it. */
  readonly name: string
  /** What a value of the family becomes in JS, for documentation. */
  readonly runtime: string
}

/** Canonical names of the ClickHouse type families clickwire has a codec for, in the order the docs list them. */
export const typeFamilies: readonly string[] = codecFamilies.map((family) => family.name)

/** The family of a name (aliases resolved), or undefined when clickwire has no codec for it. */
export function typeFamily(name: string): TypeFamily | undefined {
  const family = codecFamily(name)
  return family && { name: family.name, runtime: family.runtime }
}

/**
 * The TypeScript type of the JS values a query returns for `type`, and what of it
 * clickwire cannot read. A family without a codec, a type whose arguments its codec
 * refuses, or an AggregateFunction whose states clickwire cannot delimit, becomes `unknown`
 * and adds a message to `unsupported`, so codegen can warn instead of promising values the
 * client would fail to read.
 *
 * @example
 * ```ts
 * mapType(parseType('Array(Nullable(Decimal(9, 2)))'), defaultValueMapping).tsType // '(string | null)[]'
 * ```
 */
export function mapType(type: TypeNode, mapping: ValueMapping): MappedType {
  const unsupported: string[] = []
  const tsType = describeCodec(type, mapping).tsType(unsupported)
  return { tsType, unsupported }
}

/** TypeScript type text of the values of `type` (see {@link mapType}); unsupported parts are `unknown`. */
export function tsTypeOf(type: TypeNode, mapping: ValueMapping): string {
  return mapType(type, mapping).tsType
}

/** True when clickwire can read and write every part of `type`. */
export function isSupportedType(type: TypeNode): boolean {
  return mapType(type, { int64: 'bigint', dates: 'string', decimal: 'string' }).unsupported.length === 0
}
