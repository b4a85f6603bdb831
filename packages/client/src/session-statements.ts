import { UsageError } from '@clickwire/protocol'

/** Whitespace and comments before the first word (`--`, `#` and block comments). */
const leading = /^(?:\s+|--[^\n]*(?:\n|$)|#[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/

/**
 * The statements whose effect lives in a connection or an HTTP session only, with the first
 * words that make them one (after comments, case-insensitive). `SET DEFAULT ROLE` changes a
 * user, for good, and is not one of them.
 */
const sessionStatement =
  /^(?:(SET)(?![\w$])(?!\s+DEFAULT\s+ROLE(?![\w$]))|(USE)(?![\w$])|(CREATE)\s+(?:OR\s+REPLACE\s+)?TEMPORARY\s+TABLE(?![\w$]))/i

/**
 * The UsageError for a statement that only a session keeps (`SET`, `USE`, `CREATE
 * TEMPORARY TABLE`) run outside one; undefined for any other statement. Outside a session
 * its effect is lost or, worse, half kept: over native it stays on the one pooled connection
 * that ran it, so later calls see it or not depending on the connection they get; over HTTP
 * the next request does not see it at all.
 */
export function sessionStatementError(sql: string): UsageError | undefined {
  // Cheap for every other statement: one anchored match on its first bytes.
  const start = leading.exec(sql)?.[0].length ?? 0
  const match = sessionStatement.exec(sql.slice(start, start + 256))
  if (!match) return undefined
  const session =
    'or run it in a session, whose calls share one connection (native) or session_id (HTTP): `await using s = await client.session()`'
  if (match[1]) {
    const name = /^SET\s+([A-Za-z_][\w]*)\s*=/i.exec(sql.slice(start))?.[1] ?? 'name'
    return new UsageError(
      `SET outside a session would change one pooled connection (native) or nothing (HTTP): give settings per call (\`{ settings: { ${name}: ... } }\`) or to the client (\`createClient({ settings })\`), ${session}`,
    )
  }
  if (match[2])
    return new UsageError(
      `USE outside a session would change one pooled connection (native) or nothing (HTTP): give the database to the client (\`createClient({ database })\` or the URL), qualify table names (db.table), ${session}`,
    )
  return new UsageError(
    `a temporary table lives in one connection (native) or HTTP session only: outside a session later calls would not see it; use a table of an engine such as Memory, ${session}`,
  )
}
