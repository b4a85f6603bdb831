import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromiumArgs, chromiumPath, type StaticSite, serveStaticSite } from '@clickwire/testing'
import { chromium } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

const server = inject('clickhouse')
const page = fileURLToPath(new URL('./support/browser-page.ts', import.meta.url))

/** Bundles the page (and with it the browser build of the transport) for browsers. */
async function bundle(outDir: string): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'silent',
    // The browser conditions: the universal entry, never the node one.
    resolve: { conditions: ['@clickwire/source', 'browser', 'module', 'import', 'default'] },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      lib: { entry: page, formats: ['es'], fileName: () => 'page.js' },
    },
  })
  const files = await readdir(outDir)
  const code = (
    await Promise.all(files.filter((f) => f.endsWith('.js')).map((f) => readFile(join(outDir, f), 'utf8')))
  ).join('\n')
  return code
}

describe.skipIf(!existsSync(chromiumPath))('the browser build in headless Chromium', () => {
  let dir: string
  let code: string
  let site: StaticSite
  let siteUrl: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clickwire-browser-'))
    code = await bundle(join(dir, 'site'))
    await writeFile(
      join(dir, 'site', 'index.html'),
      `<!doctype html><html><head><meta charset="utf-8"><title>clickwire</title></head><body>
<p id="status">loading</p><p id="version"></p><p id="state"></p><p id="error"></p>
<table id="rows"><thead><tr><th>n</th><th>doubled</th><th>text</th></tr></thead><tbody></tbody></table>
<script type="module" src="./page.js"></script></body></html>`,
    )
    site = await serveStaticSite(join(dir, 'site'))
    siteUrl = site.url
  }, 120_000)

  afterAll(async () => {
    await site?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('the bundle has no Node module and no undici', () => {
    expect(code).toContain('createHttpTransport')
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:|["']node:[a-z_/]+["']/)
    // Comments may name undici; no code may load it.
    expect(code).not.toMatch(/from\s*["']undici|import\(\s*["']undici|require\(\s*["']undici/)
    expect(code).not.toContain('undiciBackend')
  })

  it('a page queries the server (simple requests, CORS) and shows the rows', async () => {
    const { user, password } = server.users.password
    const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: chromiumPath,
      headless: true,
      args: [...chromiumArgs],
    })
    try {
      const tab = await context.newPage()
      const consoleLines: string[] = []
      tab.on('console', (message) => consoleLines.push(message.text()))
      const query = new URLSearchParams({ clickhouse: server.httpUrl, user, password })
      await tab.goto(`${siteUrl}?${query}`)
      await tab.waitForFunction(
        () => document.getElementById('status')?.textContent !== 'loading',
        undefined,
        {
          timeout: 30_000,
        },
      )
      const status = await tab.textContent('#status')
      expect(status, consoleLines.join('\n')).toBe('done via fetch')
      const rows = await tab.$$eval('#rows tbody tr', (trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)),
      )
      expect(rows).toEqual([
        ['0', '0', 'é€'],
        ['1', '2', 'é€'],
        ['2', '4', 'é€'],
        ['3', '6', 'é€'],
        ['4', '8', 'é€'],
      ])
      // serverInfo() gives major.minor.patch, as the native Hello does (version() has a fourth part on 26.x).
      expect(await tab.textContent('#version')).toBe(/^\d+\.\d+\.\d+/.exec(server.version)![0])
      // The state's bytes as decoded in the page, then the server's hex of the UInt64 sum they hold.
      expect(await tab.textContent('#state')).toBe('0807060504030201 0807060504030201')
      expect(await tab.textContent('#error')).toBe('ClickHouseError 60')
    } finally {
      await context.close()
    }
  }, 90_000)
})
