import type { StartClickHouseOptions } from '@clickwire/testing'

/** The server generations of the test harness: Debian's 18.16 (`legacy`) or ClickHouse 26.7 (`modern`). */
export type ServerGeneration = NonNullable<StartClickHouseOptions['generation']>

/** What the bench starts when neither `--server` nor `CLICKWIRE_SERVER` says: the server users run. */
export const defaultGeneration: ServerGeneration = 'modern'

/**
 * The generation a `--server` value or `CLICKWIRE_SERVER` names: `18.16` (or `18`,
 * `legacy`) or `modern` (or `26`, `26.7`); undefined for anything else.
 */
export function parseServerChoice(value: string): ServerGeneration | undefined {
  const text = value.trim().toLowerCase()
  if (text === 'legacy' || text === '18' || text === '18.16') return 'legacy'
  if (text === 'modern' || text === '26' || text === '26.7') return 'modern'
  return undefined
}

/**
 * The generation of a run: `--server` first, then `CLICKWIRE_SERVER`, else modern. Unlike the
 * test harness (18.16 first when it is installed), the bench measures the server users
 * run unless told otherwise.
 */
export function chooseGeneration(
  option: ServerGeneration | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ServerGeneration {
  if (option) return option
  const fromEnv = env.CLICKWIRE_SERVER?.trim()
  if (!fromEnv) return defaultGeneration
  const generation = parseServerChoice(fromEnv)
  if (!generation) throw new Error(`CLICKWIRE_SERVER=${fromEnv}: say 18.16 or modern`)
  return generation
}

/** How the progress messages name a generation. */
export function describeGeneration(generation: ServerGeneration): string {
  return generation === 'legacy' ? 'legacy generation (Debian 18.16)' : 'modern generation (ClickHouse 26.7)'
}
