import { unescapeSqlText, unquoteSqlString } from './sql-quoting.js'

/** The arguments of a `Distributed(cluster, database, table[, sharding_key[, policy]])` engine. */
export interface DistributedEngine {
  readonly cluster: string
  /** The local table's database; undefined when it is an expression (see {@link databaseArgument}). */
  readonly database: string | undefined
  /** The database argument as written, e.g. `currentDatabase()` when it is not a name. */
  readonly databaseArgument: string
  readonly table: string
  /** The sharding key expression as the server prints it; undefined when there is none. */
  readonly shardingKey: string | undefined
}

/**
 * Reads the engine arguments of a Distributed table from `system.tables.engine_full` (or
 * the `ENGINE = ...` part of `create_table_query`). 18.16 prints the names as they were
 * written (bare, quoted as identifiers or as strings); 26.x prints them as strings:
 * `Distributed('c', 'db', 'local', rand())`. Undefined when the text is not such an engine.
 *
 * @example
 * ```ts
 * parseDistributedEngine("Distributed('c', 'db', 'events_local', cityHash64(id))")
 * // { cluster: 'c', database: 'db', table: 'events_local', shardingKey: 'cityHash64(id)' }
 * ```
 */
export function parseDistributedEngine(text: string): DistributedEngine | undefined {
  const match = /(?:^|\bENGINE\s*=\s*)Distributed\s*\(/i.exec(text.trimStart())
  if (!match) return undefined
  const args = splitArguments(text.trimStart().slice(match.index + match[0].length))
  if (args === undefined || args.length < 3) return undefined
  const cluster = nameOf(args[0]!)
  const table = nameOf(args[2]!)
  if (cluster === undefined || table === undefined) return undefined
  const shardingKey = args[3] === undefined || args[3] === '' ? undefined : args[3]
  return { cluster, database: nameOf(args[1]!), databaseArgument: args[1]!, table, shardingKey }
}

/** A name given as a bare identifier, a quoted identifier or a string literal. */
function nameOf(argument: string): string | undefined {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(argument)) return argument
  const quote = argument[0]
  if (quote === "'") return unquoteSqlString(argument)
  if ((quote === '`' || quote === '"') && argument.length >= 2 && argument.endsWith(quote))
    return unescapeSqlText(argument.slice(1, -1), quote)
  return undefined
}

/**
 * The top-level, comma-separated arguments up to the closing parenthesis, trimmed; quotes
 * and nested brackets are skipped whole. Undefined when the parenthesis never closes.
 */
function splitArguments(text: string): string[] | undefined {
  const args: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char === "'" || char === '"' || char === '`') {
      // Backslash escapes and doubled quotes stay inside the quoted part.
      let j = i + 1
      while (j < text.length) {
        if (text[j] === '\\') j += 2
        else if (text[j] === char && text[j + 1] === char) j += 2
        else if (text[j] === char) break
        else j++
      }
      if (j >= text.length) return undefined
      i = j
    } else if (char === '(' || char === '[' || char === '{') depth++
    else if (char === ')' || char === ']' || char === '}') {
      if (depth === 0) {
        args.push(text.slice(start, i).trim())
        return args
      }
      depth--
    } else if (char === ',' && depth === 0) {
      args.push(text.slice(start, i).trim())
      start = i + 1
    }
  }
  return undefined
}
