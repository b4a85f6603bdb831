/**
 * The kind of engine a server is: `legacy` is Debian's clickhouse-server 18.16 (revision
 * 54412); `modern` is a ClickHouse 26.x engine embedded as clickhouse-local (chDB): 26.7
 * (revision 54488) or 26.9 (revision 54492). Both modern lines share the engine's defects
 * (see `modernHandshakeAbort`), so tests skip on the generation, and tell the lines apart by
 * `line` where a fact of one release matters.
 */
export type ServerGeneration = 'legacy' | 'modern'

/**
 * The release lines the harness starts: `18.16` (Debian's clickhouse-server), `26.7` (npm
 * `@chdb/lib-linux-x64-gnu`) and `26.9` (PyPI `chdb-core`, the newest).
 */
export type ServerLine = '18.16' | '26.7' | '26.9'

/**
 * What a run or a test may ask for: a line, or a name for one: `legacy` = `18.16`,
 * `modern` = `26.7` (the server users run), `latest` = `26.9` (the newest).
 */
export type ServerSelector = ServerLine | ServerGeneration | 'latest'

/** The line a selector names. */
export function lineOf(selector: ServerSelector): ServerLine {
  if (selector === 'legacy') return '18.16'
  if (selector === 'modern') return '26.7'
  if (selector === 'latest') return '26.9'
  return selector
}

/** The generation of a line. */
export function generationOfLine(line: ServerLine): ServerGeneration {
  return line === '18.16' ? 'legacy' : 'modern'
}

/**
 * The line a run asks for with `CLICKWIRE_SERVER`: `18.16` (or `18`, `legacy`), `26.7` (or
 * `modern`, `26`), `26.9` (or `latest`); undefined when it does not say (then a local 18.16
 * binary comes first).
 */
export function requestedLine(env: NodeJS.ProcessEnv = process.env): ServerLine | undefined {
  const value = env.CLICKWIRE_SERVER?.trim().toLowerCase()
  if (!value) return undefined
  if (value === 'legacy' || value === '18.16' || value === '18') return '18.16'
  if (value === 'modern' || value === '26.7' || value === '26') return '26.7'
  if (value === 'latest' || value === '26.9') return '26.9'
  throw new Error(
    `CLICKWIRE_SERVER=${env.CLICKWIRE_SERVER}: say 18.16 (or legacy), modern (26.7) or latest (26.9)`,
  )
}

/** The generation a run asks for with `CLICKWIRE_SERVER` (see {@link requestedLine}). */
export function requestedGeneration(env: NodeJS.ProcessEnv = process.env): ServerGeneration | undefined {
  const line = requestedLine(env)
  return line && generationOfLine(line)
}

/** The generation of a server from its `version()`. */
export function generationOfVersion(version: string): ServerGeneration {
  const major = Number.parseInt(version, 10)
  return Number.isFinite(major) && major < 20 ? 'legacy' : 'modern'
}

/** The release line of a server from its `version()`: `major.minor` (`26.9.2.1` -> `26.9`). */
export function lineOfVersion(version: string): string {
  const match = /^(\d+)\.(\d+)/.exec(version)
  return match ? `${match[1]}.${match[2]}` : version
}

/** The native protocol revision each line announces in its Hello. */
export const serverRevisions: Readonly<Record<ServerLine, number>> = {
  '18.16': 54412,
  '26.7': 54488,
  '26.9': 54492,
}

/**
 * The revision a server's Hello announces, from its line; undefined for a line the harness
 * does not start (an external or Docker server).
 */
export function serverRevisionOf(server: { readonly line: string }): number | undefined {
  return (serverRevisions as Record<string, number | undefined>)[server.line]
}
