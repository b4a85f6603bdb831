import { generationOfLine, type ServerGeneration, type ServerLine } from '@clickwire/testing'

export type { ServerGeneration, ServerLine }

/**
 * What the bench starts when neither `--server` nor `CLICKWIRE_SERVER` says: the newest
 * server, 26.9, whose String layout (revision 54492) the bench compares with the older one.
 */
export const defaultServerLine: ServerLine = '26.9'

/**
 * The release line a `--server` value or `CLICKWIRE_SERVER` names, with the harness's
 * aliases: `18.16` (or `18`, `legacy`), `26.7` (or `26`, `modern`), `26.9` (or `latest`);
 * undefined for anything else.
 */
export function parseServerChoice(value: string): ServerLine | undefined {
  const text = value.trim().toLowerCase()
  if (text === 'legacy' || text === '18' || text === '18.16') return '18.16'
  if (text === 'modern' || text === '26' || text === '26.7') return '26.7'
  if (text === 'latest' || text === '26.9') return '26.9'
  return undefined
}

/** What to say when a server choice is not one of {@link parseServerChoice}'s. */
export const serverChoiceHint = 'say latest (26.9), modern (26.7) or 18.16'

/**
 * The line of a run: `--server` first, then `CLICKWIRE_SERVER`, else 26.9. Unlike the test
 * harness (18.16 first when it is installed), the bench measures the newest server unless
 * told otherwise.
 */
export function chooseServerLine(
  option: ServerLine | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ServerLine {
  if (option) return option
  const fromEnv = env.CLICKWIRE_SERVER?.trim()
  if (!fromEnv) return defaultServerLine
  const line = parseServerChoice(fromEnv)
  if (!line) throw new Error(`CLICKWIRE_SERVER=${fromEnv}: ${serverChoiceHint}`)
  return line
}

/** Whether a line is a 26.x engine (Parquet, `distributed_foreground_insert`, ...). */
export function isModernLine(line: ServerLine): boolean {
  return generationOfLine(line) === 'modern'
}

/** How the progress messages name a line. */
export function describeServerLine(line: ServerLine): string {
  switch (line) {
    case '18.16':
      return 'Debian 18.16 (legacy)'
    case '26.7':
      return 'ClickHouse 26.7 (modern)'
    case '26.9':
      return 'ClickHouse 26.9 (latest)'
  }
}
