// The README's quick start compiles with what a plain Node 20 project has: `tsc` (the repo's
// own TypeScript) with target ES2022, module NodeNext, lib ES2023 and @types/node, no
// esnext.disposable. The snippet is written to a throwaway project beside this package
// whose tsconfig maps `@clickwire/client` to this package's sources; only diagnostics in
// the snippet count (the package's own sources are checked by its own tsconfig).
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8')
const opening = /```ts\n([\s\S]*?)```/.exec(readme)![1]!
/** The repository README's library quick start (its first `ts` block). */
const rootOpening = /```ts\n([\s\S]*?)```/.exec(
  readFileSync(join(packageDir, '../../README.md'), 'utf8'),
)![1]!

/** The compiler options of a Node 20 project as `tsc --init` and @tsconfig/node20 suggest. */
const node20 = {
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  types: ['node'],
  skipLibCheck: true,
  noEmit: true,
}

/** Diagnostics tsc reports for `quick-start.ts` (the snippet) under `compilerOptions`. */
async function snippetDiagnostics(
  source: string,
  compilerOptions: Record<string, unknown>,
): Promise<string[]> {
  // Inside the package, so that node_modules (typescript, @types/node, deps) resolve.
  const dir = mkdtempSync(join(packageDir, '.quick-start-'))
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }))
    writeFileSync(join(dir, 'quick-start.ts'), source)
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...compilerOptions,
          typeRoots: [join(packageDir, 'node_modules/@types')],
          paths: { '@clickwire/client': [join(packageDir, 'src/index.ts')] },
        },
        files: ['quick-start.ts'],
      }),
    )
    const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc')
    const run = await promisify(execFile)(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], {
      cwd: dir,
    }).then(
      (done) => done.stdout,
      (failed: { stdout?: string }) => failed.stdout ?? String(failed),
    )
    return run.split('\n').filter((line) => line.startsWith('quick-start.ts'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

it('type-checks the quick start with the settings of a plain Node 20 project', async () => {
  expect(opening).toContain('} finally {\n  await ch.close()\n}')
  expect(await snippetDiagnostics(opening, node20)).toEqual([])
}, 120_000)

it('type-checks the `await using` form the README offers, with esnext.disposable', async () => {
  const disposing = opening
    .replace('const ch = createClient', 'await using ch = createClient')
    .replace(/^try \{\n/m, '')
    .replace(/\n\} finally \{\n {2}await ch\.close\(\)\n\}\n$/, '\n')
  expect(disposing).toContain('await using ch')
  expect(disposing).not.toContain('finally')
  expect(await snippetDiagnostics(disposing, { ...node20, lib: ['ES2023', 'esnext.disposable'] })).toEqual([])
}, 120_000)

it("type-checks the repository README's library quick start the same way", async () => {
  expect(rootOpening).toContain("import { createClient } from '@clickwire/client'")
  expect(await snippetDiagnostics(rootOpening, node20)).toEqual([])
}, 120_000)
