import { quoteSqlIdentifierIfNeeded, quoteSqlString } from '../sql/sql-quoting.js'

/**
 * A parsed ClickHouse type name. The tree is generic (a family name and its arguments)
 * so every type ClickHouse prints parses, also ones clickwire has no codec for; each
 * codec reads the arguments it knows.
 *
 * `Array(Nullable(String))` is `{ name: 'Array', args: [{ kind: 'type', type: { name:
 * 'Nullable', args: [...] } }] }`.
 */
export interface TypeNode {
  /** The family name as written, e.g. `Array`, `DateTime64`, `UInt8`. */
  readonly name: string
  readonly args: readonly TypeArgument[]
  /** True when the name was written with parentheses, even empty ones: `Tuple()`. */
  readonly parenthesized: boolean
}

/** One argument inside a type's parentheses. */
export type TypeArgument =
  /** A nested type; `name` for named elements: `Tuple(a UInt8)`, `Nested(x String)`, `JSON(a.b UInt32)`. */
  | { readonly kind: 'type'; readonly type: TypeNode; readonly name?: string | undefined }
  /** A number: precision, scale, FixedString length, aggregate function version. `text` keeps the exact spelling. */
  | { readonly kind: 'number'; readonly value: number; readonly text: string }
  /** A quoted string: a time zone, `Object('json')`. */
  | { readonly kind: 'string'; readonly value: string }
  /** An enum element `'name' = value`. */
  | { readonly kind: 'enum'; readonly name: string; readonly value: number }
  /** An aggregate function, with its parameters: `uniq`, `quantiles(0.5, 0.9)`. */
  | { readonly kind: 'function'; readonly name: string; readonly params: readonly TypeArgument[] }
  /** `name = value` settings of JSON and Dynamic: `max_dynamic_paths = 10`. */
  | { readonly kind: 'setting'; readonly name: string; readonly value: TypeArgument }
  /** JSON `SKIP path` and `SKIP REGEXP 'pattern'`. */
  | { readonly kind: 'skip'; readonly path: string; readonly regexp: boolean }

/** The nested types of a node, in order (named or not). */
export function typeArguments(node: TypeNode): TypeNode[] {
  const types: TypeNode[] = []
  for (const arg of node.args) if (arg.kind === 'type') types.push(arg.type)
  return types
}

/** The first nested type, for wrappers like `Nullable(T)`, `Array(T)`, `LowCardinality(T)`. */
export function innerType(node: TypeNode): TypeNode {
  for (const arg of node.args) if (arg.kind === 'type') return arg.type
  throw new Error(`${node.name} has no inner type`)
}

/** Type names are the server's text exactly: its escapes (see SqlEscapes). */
const asServer = { escapes: 'server' } as const

function argumentToString(arg: TypeArgument): string {
  switch (arg.kind) {
    case 'type':
      return arg.name === undefined
        ? typeToString(arg.type)
        : `${arg.name.split('.').map(quoteSqlIdentifierIfNeeded).join('.')} ${typeToString(arg.type)}`
    case 'number':
      return arg.text
    case 'string':
      return quoteSqlString(arg.value, asServer)
    case 'enum':
      return `${quoteSqlString(arg.name, asServer)} = ${arg.value}`
    case 'function':
      return arg.params.length === 0
        ? arg.name
        : `${arg.name}(${arg.params.map(argumentToString).join(', ')})`
    case 'setting':
      return `${arg.name}=${argumentToString(arg.value)}`
    case 'skip':
      return arg.regexp ? `SKIP REGEXP ${quoteSqlString(arg.path, asServer)}` : `SKIP ${arg.path}`
  }
}

/** Prints a type the way ClickHouse does: `Tuple(a UInt8, \`b c\` String)`. */
export function typeToString(node: TypeNode): string {
  if (!node.parenthesized) return node.name
  return `${node.name}(${node.args.map(argumentToString).join(', ')})`
}

/** Builds a node; handy in tests and encoders. */
export function typeNode(name: string, args: readonly TypeArgument[] = []): TypeNode {
  return { name, args, parenthesized: args.length > 0 }
}

/** A nested-type argument. */
export function typeArg(type: TypeNode, name?: string): TypeArgument {
  return name === undefined ? { kind: 'type', type } : { kind: 'type', type, name }
}
