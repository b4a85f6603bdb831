// The README opens with a runnable example: it runs, over both transports, and prints what
// its comment says.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { inspect } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { transports, urlFor } from './support/transports.js'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const opening = /```ts\n([\s\S]*?)```/.exec(readme)![1]!

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe.each(transports)('%s', (transport) => {
  it('runs the opening example of the README', async () => {
    // Written beside the tests, so that `@clickwire/client` resolves to this package.
    const file = new URL(`./readme-example-${transport}.generated.ts`, import.meta.url)
    writeFileSync(file, opening)
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
    const comment = /console\.log\(await rs\.rows\(\)\) \/\/ (.*)/.exec(opening)![1]
    expect(printed).toEqual([comment])
  })
})
