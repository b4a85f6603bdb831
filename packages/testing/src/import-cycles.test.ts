// No package's sources import each other in a circle: a circle makes module order matter
// (a value read before its module ran is undefined) and keeps bundlers from dropping
// unused code. Only static value imports count: `import type` is erased, and `import()`
// runs after every static import has loaded.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const packagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** The files `file` imports values from, by relative path (`export … from` counts too). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const found: string[] = []
  const pattern = /^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm
  for (const match of text.matchAll(pattern)) {
    if (match[1]) continue
    // `import { type A, type B } from` imports no value either.
    const clause = /\{([^}]*)\}/.exec(match[0])?.[1]
    if (clause?.split(',').every((name) => name.trim() === '' || name.trim().startsWith('type '))) continue
    found.push(resolve(dirname(file), match[2]!.replace(/\.js$/, '.ts')))
  }
  return found
}

/** One import circle of `files`, as the paths along it, or undefined when there is none. */
function findCircle(files: readonly string[]): string[] | undefined {
  const graph = new Map(files.map((file) => [file, valueImports(file).filter((to) => files.includes(to))]))
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file]
    state.set(file, 'open')
    path.push(file)
    for (const to of graph.get(file) ?? []) {
      const circle = visit(to)
      if (circle) return circle
    }
    path.pop()
    state.set(file, 'done')
    return undefined
  }
  for (const file of files) {
    const circle = visit(file)
    if (circle) return circle
  }
  return undefined
}

describe('import circles', () => {
  const names = readdirSync(packagesDir).filter((name) => !name.startsWith('.'))
  it.each(names)('packages/%s/src has none', (name) => {
    const files = sourceFiles(join(packagesDir, name, 'src'))
    const circle = findCircle(files)
    expect(circle?.map((file) => file.slice(packagesDir.length + 1))).toBeUndefined()
  })
})
