// The READMEs npm shows: every file they point to must be in the published package (its
// package.json `files`) or be a full URL, since a relative link or a mentioned path such as
// `test/examples.test.ts` leads nowhere on npmjs.com or in node_modules. Private packages,
// the apps and the repository's own README are read on GitHub: their relative links must
// name files that exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = normalize(join(dirname(fileURLToPath(import.meta.url)), '../../..'))

interface PackageJson {
  readonly name: string
  readonly private?: boolean
  readonly files?: readonly string[]
}

/** Directories with a README: the repository, each package, each app. */
function readmeDirectories(): string[] {
  const directories = ['.']
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      if (existsSync(join(root, group, name, 'README.md'))) directories.push(`${group}/${name}`)
    }
  }
  return directories
}

/** `**`, `*` of a `files` pattern as a regular expression over package-relative paths. */
function globPattern(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '\u0000')
    .replace(/\*/g, '[^/]*')
    .replace(/\u0000/g, '(?:.*/)?')
  return new RegExp(`^${body}(?:/.*)?$`)
}

/** Whether npm publishes `path` (package-relative, no leading `./`) under `files`. */
function isPublished(files: readonly string[], path: string): boolean {
  const clean = path.replace(/^\.\//, '').replace(/\/$/, '')
  // npm always ships these, whatever `files` says.
  if (/^(package\.json|README(\.md)?|LICENSE(\.md)?)$/i.test(clean)) return true
  let published = false
  for (const entry of files) {
    const negated = entry.startsWith('!')
    const pattern = globPattern((negated ? entry.slice(1) : entry).replace(/^\.\//, '').replace(/\/$/, ''))
    if (pattern.test(clean)) published = !negated
  }
  return published
}

/** What a README points to: link targets, and paths named in its text (`test/x.test.ts`). */
function referencedPaths(markdown: string): { readonly links: string[]; readonly mentions: string[] } {
  // Fenced code is code (import paths, shell lines), and comments are not shown.
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/<!--[\s\S]*?-->/g, '')
  const links: string[] = []
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(match[1]!)
  for (const match of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) links.push(match[1]!)
  // Paths in prose and code spans, outside links (their targets are taken above) and URLs.
  const prose = text
    .replace(/\[[^\]]*\]\([^)]*\)/g, '[…]')
    .replace(/^\s*\[[^\]]+\]:.*$/gm, '')
    .replace(/\b[a-z][a-z+.-]*:\/\/\S+/gi, '')
  const mentions = [
    ...prose.matchAll(
      /(?<![\w/.@:-])((?:\.\.\/|\.\/)?(?:test|examples|src|bin|scripts|results)\/[\w./*<>-]*)/g,
    ),
  ]
    .map((match) => match[1]!.replace(/[.,;:]+$/, ''))
    .filter((path) => !/[*<>]/.test(path))
  return { links, mentions }
}

const isUrl = (target: string) => /^[a-z][a-z+.-]*:/i.test(target)

describe('README links', () => {
  it('reads links and mentioned paths, and the files patterns as npm does', () => {
    const found = referencedPaths(
      'See [a](examples/a.ts), [`test/z.ts`](https://x.test/y), `test/x.test.ts` and test/y.ts.\n[c]: ./src/c.ts\n```\nimport "./src/no.ts"\n```\n<!-- test/hidden.ts -->',
    )
    expect(found).toEqual({
      links: ['examples/a.ts', 'https://x.test/y', './src/c.ts'],
      mentions: ['test/x.test.ts', 'test/y.ts'],
    })
    const files = ['dist', 'src', '!src/**/*.test.ts', 'README.md']
    expect(isPublished(files, 'src/index.ts')).toBe(true)
    expect(isPublished(files, 'src/deep/a.ts')).toBe(true)
    expect(isPublished(files, 'src/a.test.ts')).toBe(false)
    expect(isPublished(files, 'src/deep/a.test.ts')).toBe(false)
    expect(isPublished(files, 'examples/quick-start.ts')).toBe(false)
    expect(isPublished(files, 'test/')).toBe(false)
    expect(isPublished(files, 'package.json')).toBe(true)
  })

  for (const directory of readmeDirectories()) {
    it(`${directory}/README.md points only to what its readers can open`, () => {
      const dir = join(root, directory)
      const pkg: PackageJson | undefined = existsSync(join(dir, 'package.json'))
        ? JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
        : undefined
      const published = pkg !== undefined && pkg.private !== true
      const { links, mentions } = referencedPaths(readFileSync(join(dir, 'README.md'), 'utf8'))
      const problems: string[] = []
      for (const link of links) {
        const target = decodeURI(link.split('#')[0]!)
        if (isUrl(link) || target === '') continue
        const path = relative(dir, join(dir, target))
        if (!existsSync(join(dir, target))) problems.push(`link ${link}: no such file`)
        else if (published && (path.startsWith('..') || !isPublished(pkg.files ?? [], path)))
          problems.push(`link ${link}: not in the published package (use a full GitHub URL)`)
      }
      if (published) {
        for (const mention of mentions) {
          const path = relative(dir, join(dir, mention))
          if (
            existsSync(join(dir, mention)) &&
            (path.startsWith('..') || !isPublished(pkg.files ?? [], path))
          )
            problems.push(`${mention}: named in the text but not published (link it with a full GitHub URL)`)
        }
      }
      expect(problems).toEqual([])
    })
  }
})
