import { type TypeArgument, type TypeNode, typeToString } from './type-node.js'

/**
 * ClickHouse's case-insensitive SQL-compatibility aliases for type families. Column types
 * the server prints use canonical names; aliases show up in user-written types such as
 * `{x:INT}` placeholders or insert column lists.
 */
const aliases: Readonly<Record<string, string>> = {
  bool: 'Bool',
  boolean: 'Bool',
  tinyint: 'Int8',
  int1: 'Int8',
  byte: 'Int8',
  smallint: 'Int16',
  int2: 'Int16',
  int: 'Int32',
  int4: 'Int32',
  integer: 'Int32',
  mediumint: 'Int32',
  bigint: 'Int64',
  int8: 'Int64',
  float: 'Float32',
  real: 'Float32',
  float4: 'Float32',
  double: 'Float64',
  float8: 'Float64',
  'double precision': 'Float64',
  dec: 'Decimal',
  decimal: 'Decimal',
  numeric: 'Decimal',
  fixed: 'Decimal',
  char: 'String',
  varchar: 'String',
  text: 'String',
  tinytext: 'String',
  mediumtext: 'String',
  longtext: 'String',
  blob: 'String',
  tinyblob: 'String',
  mediumblob: 'String',
  longblob: 'String',
  bytea: 'String',
  binary: 'FixedString',
  varbinary: 'String',
  timestamp: 'DateTime',
  enum: 'Enum',
  json: 'JSON',
  inet4: 'IPv4',
  inet6: 'IPv6',
}

/** Names that are only aliases when written in this exact case, because a family shares them. */
const exact: Readonly<Record<string, string>> = {
  Int1: 'Int8',
  INT1: 'Int8',
}

/** The canonical family name for `name` (itself when it is not an alias). */
export function canonicalTypeName(name: string): string {
  const known = exact[name]
  if (known) return known
  // Canonical names win over aliases: `Int8` is a family, `INT8` is an alias of Int64.
  if (/^(U?Int(8|16|32|64|128|256)|Float(32|64)|Decimal(32|64|128|256)?|String|JSON|Enum(8|16)?)$/.test(name))
    return name
  return aliases[name.toLowerCase()] ?? name
}

/** The type name as ClickHouse prints it, with SQL aliases resolved (`INT` -> `Int32`). */
export function canonicalTypeText(node: TypeNode): string {
  return typeToString(canonicalTypeNode(node))
}

/** The node with SQL aliases resolved at every level. */
export function canonicalTypeNode(node: TypeNode): TypeNode {
  const args = node.args.map(
    (arg): TypeArgument => (arg.kind === 'type' ? { ...arg, type: canonicalTypeNode(arg.type) } : arg),
  )
  return { ...node, name: canonicalTypeName(node.name), args }
}
