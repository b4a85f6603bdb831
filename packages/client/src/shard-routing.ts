import { UsageError } from '@clickwire/protocol'
import { type DistributedEngine, parseDistributedEngine } from '@clickwire/protocol/cluster'

/*
 * How ClickHouse picks the shard of a row inserted into a Distributed table, as pure
 * functions (the rules of createBlockSelector and Cluster::slot_to_shard, the same in 18.16
 * and 26.x):
 *
 * - each shard, in the cluster's order, owns `shard_weight` consecutive slots (a weight of
 *   0 owns none: no row goes there);
 * - the sharding key must evaluate to UInt8..UInt64 or Int8..Int64 (also LowCardinality of
 *   one, 21+); a signed value is taken as the unsigned integer of the same width (Int32 -1
 *   is 4294967295, Int64 -1 is 2^64 - 1), not as a negative remainder;
 * - the row goes to the shard owning slot `key % total weight`.
 */

/** The integer types a sharding key may evaluate to, and their widths in bits. */
const keyWidths: Readonly<Record<string, { bits: number; signed: boolean }>> = {
  UInt8: { bits: 8, signed: false },
  UInt16: { bits: 16, signed: false },
  UInt32: { bits: 32, signed: false },
  UInt64: { bits: 64, signed: false },
  Int8: { bits: 8, signed: true },
  Int16: { bits: 16, signed: true },
  Int32: { bits: 32, signed: true },
  Int64: { bits: 64, signed: true },
}

/** The integer type a key of ClickHouse type `type` is, or undefined if it cannot shard. */
export function shardingKeyType(type: string): keyof typeof keyWidths | undefined {
  const inner = /^LowCardinality\((.*)\)$/.exec(type)?.[1] ?? type
  return inner in keyWidths ? inner : undefined
}

/**
 * The slot table of a cluster: for each slot, the index (0-based, in cluster order) of the
 * shard that owns it. Weights are the shards' `shard_weight`.
 */
export function slotTable(weights: readonly number[]): Uint32Array {
  let total = 0
  for (const weight of weights) {
    if (!(Number.isInteger(weight) && weight >= 0))
      throw new UsageError(`a shard weight must be an integer >= 0, got ${weight}`)
    total += weight
  }
  if (total === 0) throw new UsageError('every shard of the cluster has weight 0: no shard takes inserts')
  const slots = new Uint32Array(total)
  let next = 0
  weights.forEach((weight, shard) => {
    slots.fill(shard, next, next + weight)
    next += weight
  })
  return slots
}

/**
 * A function from a key value (a number, bigint or decimal text, as the client maps
 * integers) of type `type` to its shard index in `slots`, as ClickHouse routes it.
 */
export function shardSelector(type: string, slots: Uint32Array): (value: unknown) => number {
  const keyType = shardingKeyType(type)
  if (!keyType) throw new UsageError(`a sharding key must be an integer (UInt8..Int64), got ${type}`)
  const { bits, signed } = keyWidths[keyType]!
  const total = slots.length
  if (bits <= 32) {
    // Exact in doubles: the unsigned value is below 2^32.
    const span = 2 ** bits
    return (value) => {
      const number = Number(value)
      if (!Number.isInteger(number))
        throw new UsageError(`the sharding key ${JSON.stringify(String(value))} is not an integer`)
      const unsigned = signed && number < 0 ? number + span : number
      return slots[unsigned % total]!
    }
  }
  const bigTotal = BigInt(total)
  return (value) => {
    let big: bigint
    try {
      big = typeof value === 'bigint' ? value : BigInt(value as number | string)
    } catch {
      throw new UsageError(`the sharding key ${JSON.stringify(String(value))} is not an integer`)
    }
    return slots[Number(BigInt.asUintN(64, big) % bigTotal)]!
  }
}

/**
 * The Distributed engine of `engineFull` (`system.tables.engine_full`), read by protocol's
 * parser. Its `database` is undefined for `currentDatabase()`: the Distributed table's own.
 * Any other engine, or a database given by another expression, is a UsageError.
 */
export function distributedEngineOf(engineFull: string): DistributedEngine {
  const engine = parseDistributedEngine(engineFull)
  if (engine === undefined)
    throw new UsageError(`not a Distributed table, or its engine arguments cannot be read: ${engineFull}`)
  if (engine.database === undefined && !/^currentDatabase\(\s*\)$/i.test(engine.databaseArgument))
    throw new UsageError(
      `the Distributed engine names its database by an expression: ${engine.databaseArgument}`,
    )
  return engine
}

/**
 * The columns a sharding key expression reads, among `columns`: every identifier (bare or
 * backquoted, outside string literals) that names a column and is not called as a function.
 * Used to send only those columns to the server that evaluates the key.
 */
export function keyColumns(expression: string, columns: readonly string[]): string[] {
  const known = new Set(columns)
  const found = new Set<string>()
  const token = /'(?:[^'\\]|\\.)*'|`((?:[^`\\]|\\.)*)`|([A-Za-z_][A-Za-z0-9_]*)(\s*\()?/gs
  for (const match of expression.matchAll(token)) {
    const name = match[1] !== undefined ? match[1].replace(/\\(.)/gs, '$1') : match[2]
    if (name === undefined || match[3] !== undefined) continue
    if (known.has(name)) found.add(name)
  }
  return columns.filter((name) => found.has(name))
}

/** The column a key expression is, when it is just a column's name (`id`, `` `id` ``). */
export function plainKeyColumn(expression: string, columns: readonly string[]): string | undefined {
  const name = /^`((?:[^`\\]|\\.)*)`$/s.exec(expression)?.[1]?.replace(/\\(.)/gs, '$1') ?? expression
  return columns.includes(name) ? name : undefined
}

/**
 * The shard index of every value of a key column into `out`: as {@link shardSelector}, with
 * a fast path for 64-bit typed arrays, whose halves are read as two 32-bit words (the
 * unsigned value is hi * 2^32 + lo, taken modulo the total weight in doubles) instead of
 * one BigInt division per row.
 */
export function shardsOfColumn(
  values: ArrayLike<unknown>,
  type: string,
  slots: Uint32Array,
  out: Uint32Array,
): void {
  const total = slots.length
  // Exact while (total - 1)^2 + total stays below 2^53: any real cluster's total weight.
  if (
    (values instanceof BigInt64Array || values instanceof BigUint64Array) &&
    littleEndian &&
    total < 2 ** 26
  ) {
    const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2)
    const high = 2 ** 32 % total
    for (let row = 0; row < values.length; row++) {
      out[row] = slots[((words[2 * row + 1]! % total) * high + (words[2 * row]! % total)) % total]!
    }
    return
  }
  const select = shardSelector(type, slots)
  for (let row = 0; row < values.length; row++) out[row] = select(values[row])
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1
