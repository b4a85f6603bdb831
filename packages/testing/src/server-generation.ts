/**
 * The two server generations every suite runs on: `legacy` is Debian's clickhouse-server
 * 18.16 (revision 54412), `modern` the ClickHouse 26.7 engine inside chDB's libchdb.so
 * (revision 54488), the server users run.
 */
export type ServerGeneration = 'legacy' | 'modern'

/**
 * The generation a run asks for with `CLICKWIRE_SERVER` (`18.16`/`legacy` or `modern`/`26`),
 * or undefined when it does not say (then a local 18.16 binary comes first).
 */
export function requestedGeneration(env: NodeJS.ProcessEnv = process.env): ServerGeneration | undefined {
  const value = env.CLICKWIRE_SERVER?.trim().toLowerCase()
  if (!value) return undefined
  if (value === 'legacy' || value === '18.16' || value === '18') return 'legacy'
  if (value === 'modern' || value.startsWith('26')) return 'modern'
  throw new Error(`CLICKWIRE_SERVER=${env.CLICKWIRE_SERVER}: say 18.16 (or legacy) or modern`)
}

/** The generation of a server from its `version()`. */
export function generationOfVersion(version: string): ServerGeneration {
  const major = Number.parseInt(version, 10)
  return Number.isFinite(major) && major < 20 ? 'legacy' : 'modern'
}
