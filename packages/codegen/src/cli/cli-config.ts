import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { UsageError } from '@clickwire/protocol'

/**
 * The config file: the same settings as the flags, under the flags' names in camelCase.
 * Flags given on the command line win over the file.
 *
 * @example
 * ```json
 * { "url": "clickhouse://127.0.0.1:9000", "database": ["analytics"], "include": ["events_*"],
 *   "out": "src/db.ts", "int64": "string" }
 * ```
 */
export interface CodegenConfig {
  readonly url?: string | undefined
  /** One database or several. */
  readonly database?: string | readonly string[] | undefined
  readonly include?: string | readonly string[] | undefined
  readonly exclude?: string | readonly string[] | undefined
  readonly out?: string | undefined
  readonly print?: boolean | undefined
  readonly camelCase?: boolean | undefined
  readonly int64?: 'bigint' | 'number' | 'string' | undefined
  readonly dates?: 'string' | 'date' | undefined
  readonly decimal?: 'string' | 'number' | undefined
  readonly quiet?: boolean | undefined
  /** Seconds to wait for each introspection query (`--timeout`). */
  readonly timeout?: number | undefined
}

/** File names looked for in the working directory, in this order, when `--config` is not given. */
export const configFileNames = [
  'clickwire-codegen.config.json',
  'clickwire-codegen.config.mjs',
  'clickwire-codegen.config.js',
] as const

const stringKeys = ['url', 'out'] as const
const listKeys = ['database', 'include', 'exclude'] as const
const booleanKeys = ['print', 'camelCase', 'quiet'] as const
const positiveNumberKeys = ['timeout'] as const
const choiceKeys = {
  int64: ['bigint', 'number', 'string'],
  dates: ['string', 'date'],
  decimal: ['string', 'number'],
} as const
const knownKeys: readonly string[] = [
  ...stringKeys,
  ...listKeys,
  ...booleanKeys,
  ...positiveNumberKeys,
  ...Object.keys(choiceKeys),
]

/** Checks a parsed config object key by key, so a typo is an error rather than ignored. */
export function checkConfig(value: unknown, source: string): CodegenConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${source}: the config must be an object`)
  }
  const config = value as Record<string, unknown>
  for (const [key, entry] of Object.entries(config)) {
    if (!knownKeys.includes(key)) {
      throw new UsageError(`${source}: unknown key ${JSON.stringify(key)} (known: ${knownKeys.join(', ')})`)
    }
    if (entry === undefined) continue
    const fail = (expected: string) => {
      throw new UsageError(`${source}: ${key} must be ${expected}`)
    }
    if ((stringKeys as readonly string[]).includes(key) && typeof entry !== 'string') fail('a string')
    if ((booleanKeys as readonly string[]).includes(key) && typeof entry !== 'boolean') fail('true or false')
    if (
      (positiveNumberKeys as readonly string[]).includes(key) &&
      !(typeof entry === 'number' && Number.isFinite(entry) && entry > 0)
    )
      fail('a number above 0')
    if (
      (listKeys as readonly string[]).includes(key) &&
      typeof entry !== 'string' &&
      !(Array.isArray(entry) && entry.every((item) => typeof item === 'string'))
    )
      fail('a string or an array of strings')
    if (key in choiceKeys) {
      const choices: readonly string[] = choiceKeys[key as keyof typeof choiceKeys]
      if (!choices.includes(entry as string)) fail(`one of ${choices.join(', ')}`)
    }
  }
  return config as CodegenConfig
}

/**
 * Loads the config file: `explicitPath` if given (it must exist), else the first of
 * {@link configFileNames} in `cwd`, else an empty config. JSON is parsed; `.mjs` / `.js`
 * files are imported and their default export is the config.
 */
export async function loadConfig(
  cwd: string,
  explicitPath?: string | undefined,
): Promise<{ config: CodegenConfig; path: string | undefined }> {
  const path =
    explicitPath !== undefined
      ? resolve(cwd, explicitPath)
      : configFileNames.map((name) => resolve(cwd, name)).find((candidate) => existsSync(candidate))
  if (path === undefined) return { config: {}, path: undefined }
  if (!existsSync(path)) throw new UsageError(`config file ${path} does not exist`)
  let value: unknown
  if (path.endsWith('.json')) {
    try {
      value = JSON.parse(await readFile(path, 'utf8'))
    } catch (error) {
      throw new UsageError(`${path}: ${(error as Error).message}`)
    }
  } else {
    const module = (await import(pathToFileURL(path).href)) as { default?: unknown }
    value = module.default
  }
  return { config: checkConfig(value, path), path }
}
