// Every error class's `name` survives bundling and minifying: a bundler renames classes
// (`_ClickHouseError`, or one letter once minified), so a name read from the class would
// not. The errors are bundled with esbuild as an app would be, then used from the bundle.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const errorsEntry = fileURLToPath(new URL('./index.ts', import.meta.url))

/** A script that makes one error of each class, bundled and minified. */
const script = `
import * as errors from ${JSON.stringify(errorsEntry)}
export const made = {
  ClickwireError: new errors.ClickwireError('X', 'm'),
  ClickHouseError: new errors.ClickHouseError({ code: 60, type: 'DB::Exception', message: 'm' }),
  ConnectionError: new errors.ConnectionError('m'),
  ProtocolError: new errors.ProtocolError('m'),
  TimeoutError: new errors.TimeoutError('query', 1),
  AbortError: new errors.AbortError(),
  UsageError: new errors.UsageError('m'),
  TypeParseError: new errors.TypeParseError('Int', 0, 'a type'),
}
`

/** Every class the errors entry exports. */
const classNames = [
  'AbortError',
  'ClickHouseError',
  'ClickwireError',
  'ConnectionError',
  'ProtocolError',
  'TimeoutError',
  'TypeParseError',
  'UsageError',
]

let dir: string
let made: Record<string, Error>

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'clickwire-error-names-'))
  const entry = join(dir, 'entry.js')
  writeFileSync(entry, script)
  const out = join(dir, 'bundle.mjs')
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    outfile: out,
    logLevel: 'error',
  })
  made = (await import(pathToFileURL(out).href)).made
}, 60_000)

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('error names after bundling and minifying', () => {
  it('covers every error class the package exports', async () => {
    const exported = Object.entries(await import('./index.js'))
      .filter(
        ([, value]) =>
          typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error,
      )
      .map(([name]) => name)
      .sort()
    expect(exported).toEqual(classNames)
    expect(Object.keys(made).sort()).toEqual(classNames)
  })

  it.each(classNames)('%s keeps its name', (name) => {
    const error = made[name]!
    // The check means something only if the bundler did rename the class.
    expect(error.constructor.name).not.toBe(name)
    expect(error.name).toBe(name)
    expect(String(error)).toBe(`${name}: ${error.message}`)
    expect(error.stack?.startsWith(`${name}: ${error.message}\n`)).toBe(true)
  })
})
