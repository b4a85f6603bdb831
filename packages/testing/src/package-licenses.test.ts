// Every package npm publishes (no `"private": true`) ships the Apache-2.0 license its
// package.json names: a LICENSE file, the standard text, the same as the repository's, and
// listed in `files`.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = normalize(join(dirname(fileURLToPath(import.meta.url)), '../../..'))

/** SHA-256 of https://www.apache.org/licenses/LICENSE-2.0.txt, the standard text. */
const apacheTextSha256 = 'cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30'

interface PackageJson {
  readonly name: string
  readonly private?: boolean
  readonly license?: string
  readonly files?: readonly string[]
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

/** Package directories (packages/*, apps/*) whose package.json is not private. */
function publishable(): { directory: string; json: PackageJson }[] {
  const found: { directory: string; json: PackageJson }[] = []
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const file = join(root, group, name, 'package.json')
      if (!existsSync(file)) continue
      const json = JSON.parse(readFileSync(file, 'utf8')) as PackageJson
      if (json.private !== true) found.push({ directory: `${group}/${name}`, json })
    }
  }
  return found
}

describe('licenses', () => {
  it('the repository has the standard Apache-2.0 text in LICENSE', () => {
    expect(sha256(join(root, 'LICENSE'))).toBe(apacheTextSha256)
  })

  it('every publishable package ships it: LICENSE beside package.json, in files, license Apache-2.0', () => {
    const packages = publishable()
    expect(packages.map((p) => p.json.name)).toEqual([
      '@clickwire/client',
      '@clickwire/codegen',
      '@clickwire/http',
      '@clickwire/kysely',
      '@clickwire/native',
      '@clickwire/protocol',
    ])
    for (const { directory, json } of packages) {
      const license = join(root, directory, 'LICENSE')
      expect(existsSync(license), `${directory}/LICENSE`).toBe(true)
      expect(sha256(license), `${directory}/LICENSE`).toBe(apacheTextSha256)
      expect(json.files, `${directory} files`).toContain('LICENSE')
      expect(json.license, `${directory} license`).toBe('Apache-2.0')
    }
  })
})
