import {
  type BlockColumn,
  DateTimeColumn,
  type NativeBlock,
  parseTypeCached,
  type TypeNode,
  timeZone,
  type ValueMapping,
} from '@clickwire/protocol'

/**
 * `FORMAT Native` over HTTP is written at protocol revision 0, where a server names a
 * top-level `DateTime('Asia/Tokyo')` column just `DateTime` (old clients could not read
 * the time zone; checked on 18.16, and 26.7 does the same). The instants are right, but
 * their text would come out in the server's zone, unlike over the native protocol. The
 * result's real types come from `DESCRIBE TABLE (<query>)` (result-metadata.ts), asked only
 * when a result has such a column; this puts the zone back without decoding anything twice.
 */

/** Indexes of top-level columns whose zone the server may have dropped. */
export function zonelessDateTimes(block: NativeBlock): number[] {
  const indexes: number[] = []
  block.columns.forEach((column, index) => {
    if (column.typeName === 'DateTime') indexes.push(index)
  })
  return indexes
}

/** The columns' real types by index (from DESCRIBE), where they restore a zone. */
export type ZoneTypes = ReadonlyMap<number, { readonly typeName: string; readonly type: TypeNode }>

/** Picks the DateTime('zone') types of `described` (type names in result order) for the zoneless columns. */
export function zoneTypes(described: readonly string[], indexes: readonly number[]): ZoneTypes {
  const types = new Map<number, { typeName: string; type: TypeNode }>()
  for (const index of indexes) {
    const typeName = described[index]
    if (typeName === undefined || !typeName.startsWith('DateTime(')) continue
    types.set(index, { typeName, type: parseTypeCached(typeName) })
  }
  return types
}

/** The block with its zoneless DateTime columns given back their zone (same data, no copy). */
export function restoreZones(block: NativeBlock, types: ZoneTypes, mapping: ValueMapping): NativeBlock {
  if (types.size === 0) return block
  const columns: BlockColumn[] = block.columns.map((column, index) => {
    const real = types.get(index)
    if (!real || !(column.column instanceof DateTimeColumn)) return column
    const zoneArg = real.type.args[0]
    const zone = zoneArg?.kind === 'string' ? zoneArg.value : undefined
    if (zone === undefined) return column
    return {
      name: column.name,
      typeName: real.typeName,
      type: real.type,
      column: new DateTimeColumn(real.type, column.column.data, timeZone(zone), mapping.dates),
    }
  })
  return { ...block, columns }
}
