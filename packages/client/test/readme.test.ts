// The README opens with a runnable example, and so does the repository's library quick start:
// each runs, over both transports, and prints what its comment says.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { inspect } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { transports, urlFor } from './support/transports.js'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const opening = /```ts\n([\s\S]*?)```/.exec(readme)![1]!
/** The repository README's library quick start (its first `ts` block). */
const rootOpening = /```ts\n([\s\S]*?)```/.exec(
  readFileSync(new URL('../../../README.md', import.meta.url), 'utf8'),
)![1]!

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

/** Runs `source` as a module over `transport`, returning what it printed with console.log. */
async function run(source: string, name: string, transport: (typeof transports)[number]): Promise<string[]> {
  // Written beside the tests, so that `@clickwire/client` resolves to this package.
  const file = new URL(`./${name}-${transport}.generated.ts`, import.meta.url)
  writeFileSync(file, source)
  vi.stubEnv('CLICKHOUSE_URL', urlFor(transport))
  const printed: string[] = []
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(
      args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { breakLength: 200 }))).join(' '),
    )
  })
  try {
    await import(/* @vite-ignore */ file.href)
  } finally {
    rmSync(file, { force: true })
  }
  return printed
}

describe.each(transports)('%s', (transport) => {
  it("runs the repository README's library quick start", async () => {
    const printed = await run(rootOpening, 'root-readme-example', transport)
    const comment = /console\.log\(await rs\.rows\(\)\) \/\/ (.*)/.exec(rootOpening)![1]
    expect(comment).toBe("[ { id: 1, name: 'one' }, { id: 2, name: 'two' } ]")
    expect(printed).toEqual([comment])
  })

  it('runs the opening example of the README', async () => {
    const printed = await run(opening, 'readme-example', transport)
    const comment = /console\.log\(await rs\.rows\(\)\) \/\/ (.*)/.exec(opening)![1]
    expect(printed).toEqual([comment])
  })
})
