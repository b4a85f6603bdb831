// The README opens with a runnable example: it runs, and each console.log prints what the
// comment on its line says.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { inspect } from 'node:util'
import { afterEach, expect, it, vi } from 'vitest'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const opening = /```ts\n([\s\S]*?)```/.exec(readme)![1]!

afterEach(() => {
  vi.restoreAllMocks()
})

it('runs the opening example of the README', async () => {
  // Inside the package (git-ignored .tmp/), so that `@clickwire/protocol` resolves to it.
  const dir = new URL('../.tmp/', import.meta.url)
  const file = new URL('readme-example.ts', dir)
  mkdirSync(dir, { recursive: true })
  writeFileSync(file, opening)
  const printed: string[] = []
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(
      args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { breakLength: 200 }))).join(' '),
    )
  })
  try {
    await import(/* @vite-ignore */ file.href)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const comments = [...opening.matchAll(/^console\.log\(.*\) \/\/ (.*)$/gm)].map((match) => match[1])
  expect(comments).toHaveLength(3)
  expect(printed).toEqual(comments)
})
