// Every pending changeset is one `changeset version` can read: a front matter of package
// names with their bumps, right after the opening `---`, then the text. A formatter once
// turned three of them into markdown headings, and the release tooling refused them all.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = normalize(join(dirname(fileURLToPath(import.meta.url)), '../../..'))
const folder = join(root, '.changeset')

/** The names of the workspace's packages, private ones included (their changesets are allowed). */
function workspaceNames(): Set<string> {
  const names = new Set<string>()
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      try {
        names.add(
          (JSON.parse(readFileSync(join(root, group, name, 'package.json'), 'utf8')) as { name: string })
            .name,
        )
      } catch {
        // A folder without a package.json is no package.
      }
    }
  }
  return names
}

const pending = readdirSync(folder).filter((file) => file.endsWith('.md') && file !== 'README.md')

describe('pending changesets', () => {
  const names = workspaceNames()
  it.each(pending.length > 0 ? pending : ['(none)'])(
    '%s names packages and bumps as changesets reads them',
    (file) => {
      if (file === '(none)') return
      const text = readFileSync(join(folder, file), 'utf8')
      const match = /^---\n((?:["'][^"'\n]+["']: (?:major|minor|patch)\n)*)---\n\n?\S/.exec(text)
      expect(match, `${file} has no front matter changesets can read`).not.toBeNull()
      for (const line of match![1]!.split('\n').filter(Boolean)) {
        const name = /^["']([^"']+)["']/.exec(line)![1]!
        expect(names.has(name), `${file} names ${name}, which is no workspace package`).toBe(true)
      }
    },
  )
})
