import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { which } from './bench-tools.js'
import { ontimeColumns } from './ontime-schema.js'

const root = resolve(import.meta.dirname, '..')
const goRoot = join(root, '.peers', 'go')
const chgoModule = join(goRoot, 'pkg', 'mod', 'github.com', '!click!house', 'ch-go@v0.75.0')
const go = which('go')

describe("the ch-go program's column types", () => {
  it('has a Go test for every type of the ontime schema', () => {
    const tested = readFileSync(join(root, 'go', 'columns_test.go'), 'utf8')
    const body = /func TestColumnForOntimeTypes[\s\S]*?\n}\n/.exec(tested)?.[0] ?? ''
    for (const type of new Set(ontimeColumns.map(([, type]) => type))) expect(body).toContain(`"${type}"`)
  })

  // Needs go and the module cache `setup-peers` fills (no network: GOPROXY=off).
  it.skipIf(!go || !existsSync(chgoModule))('passes go test', { timeout: 180_000 }, () => {
    const result = spawnSync(go!, ['test', '-count=1', '.'], {
      cwd: join(root, 'go'),
      encoding: 'utf8',
      env: {
        ...process.env,
        GOPATH: goRoot,
        GOMODCACHE: join(goRoot, 'pkg', 'mod'),
        GOCACHE: join(goRoot, 'cache'),
        GOFLAGS: '-modcacherw',
        GOTOOLCHAIN: 'local',
        GOPROXY: 'off',
      },
    })
    expect({ status: result.status, output: `${result.stdout}${result.stderr}`.slice(-2000) }).toMatchObject({
      status: 0,
    })
  })
})
