import { UsageError } from '@clickwire/client'
import type { ServerProfile } from './server-profile.js'

/*
 * Kysely's portable column types (the strings `addColumn` accepts, and what its Migrator
 * uses) in ClickHouse. A ClickHouse type is given as `sql\`LowCardinality(String)\``; that
 * is a raw node and never comes through here. Types ClickHouse has no counterpart for are
 * refused rather than guessed.
 */

const fixed: Readonly<Record<string, string>> = {
  varchar: 'String',
  char: 'String',
  text: 'String',
  json: 'String',
  jsonb: 'String',
  binary: 'String',
  bytea: 'String',
  blob: 'String',
  varbinary: 'String',
  uuid: 'UUID',
  integer: 'Int32',
  int4: 'Int32',
  int2: 'Int16',
  smallint: 'Int16',
  int8: 'Int64',
  bigint: 'Int64',
  real: 'Float32',
  float4: 'Float32',
  'double precision': 'Float64',
  float8: 'Float64',
  date: 'Date',
  datetime: 'DateTime',
  datetime2: 'DateTime',
  timestamp: 'DateTime',
  timestamptz: "DateTime('UTC')",
}

/** The ClickHouse type for one of Kysely's column data types. */
export function clickHouseDataType(dataType: string, profile: ServerProfile): string {
  const known = fixed[dataType]
  if (known) return known
  if (dataType === 'boolean') return profile.parameterTypes.bool ? 'Bool' : 'UInt8'
  const sized = /^(\w+)\((\d+)(?:, (\d+))?\)$/.exec(dataType)
  if (sized) {
    const [, name, first, second] = sized
    if (name === 'varchar' || name === 'varbinary') return 'String'
    if (name === 'char' || name === 'binary') return `FixedString(${first})`
    if ((name === 'decimal' || name === 'numeric') && second !== undefined)
      return `Decimal(${first}, ${second})`
    if (name === 'datetime' || name === 'timestamp' || name === 'timestamptz') {
      if (!profile.parameterTypes.dateTime64) {
        throw new UsageError(
          `${dataType} needs DateTime64, which this server (ClickHouse ${profile.version}) lacks`,
        )
      }
      return name === 'timestamptz' ? `DateTime64(${first}, 'UTC')` : `DateTime64(${first})`
    }
  }
  throw new UsageError(
    `ClickHouse has no column type for ${JSON.stringify(dataType)}; give one with sql\`...\` (e.g. sql\`Decimal(18, 4)\`)`,
  )
}
