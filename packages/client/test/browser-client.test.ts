// @clickwire/client in real headless Chromium, bundled with browser conditions, from a page
// of another origin (another port) than the server: `createClient(url)` with no other
// option queries, inserts and reads back, pings, gets the server's typed errors and aborts
// like in Node, with CORS simple requests only (no preflight, which 18.16 never answers
// and current servers answer without CORS headers), against the server's stock users.
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromiumArgs, chromiumPath, type StaticSite, serveStaticSite } from '@clickwire/testing'
import { type BrowserContext, chromium } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AbortError, ClickHouseError, createClient } from '../src/index.js'
import { loadSlackMs } from './support/timed-settle.js'
import { deadPort, server, thrown, uniqueTable } from './support/transports.js'

const page = fileURLToPath(new URL('./support/browser-client-page.ts', import.meta.url))
const packageRoot = fileURLToPath(new URL('..', import.meta.url))

/** Bundles the page as a browser application would get it: `@clickwire/client`'s browser entry. */
async function bundle(outDir: string): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'silent',
    root: packageRoot,
    resolve: { conditions: ['@clickwire/source', 'browser', 'module', 'import', 'default'] },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      lib: { entry: page, formats: ['es'], fileName: () => 'page.js' },
    },
  })
  return readFile(join(outDir, 'page.js'), 'utf8')
}

/** What a page gave, and the requests it sent to the server. */
interface PageRun {
  readonly result: Record<string, unknown>
  readonly requests: ReadonlyArray<{ method: string; url: string; headers: Record<string, string> }>
}

/** The CORS-safelisted request headers (and those the browser adds itself): none needs a preflight. */
const safeHeaders = new Set([
  'accept',
  'accept-language',
  'content-language',
  'content-type',
  'referer',
  'user-agent',
])

describe.skipIf(!existsSync(chromiumPath))('@clickwire/client in headless Chromium', () => {
  let dir: string
  let code: string
  let site: StaticSite
  let siteUrl: string
  let context: BrowserContext
  const serverOrigin = new URL(server.httpUrl).origin
  const tables: string[] = []

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clickwire-browser-client-'))
    code = await bundle(join(dir, 'site'))
    await writeFile(
      join(dir, 'site', 'index.html'),
      `<!doctype html><html><head><meta charset="utf-8"><title>clickwire client</title></head><body>
<p id="status">loading</p><pre id="result"></pre>
<script type="module" src="./page.js"></script></body></html>`,
    )
    site = await serveStaticSite(join(dir, 'site'))
    siteUrl = site.url
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: chromiumPath,
      headless: true,
      args: [...chromiumArgs],
    })
  }, 180_000)

  afterAll(async () => {
    await context?.close()
    await site?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
    if (tables.length > 0) {
      await using ch = createClient(server.httpUrl)
      for (const table of tables) await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })

  /** Opens the page with `query` and waits until it is done. */
  async function open(query: Record<string, string>): Promise<PageRun> {
    const tab = await context.newPage()
    const requests: Array<PageRun['requests'][number]> = []
    const consoleLines: string[] = []
    tab.on('console', (message) => consoleLines.push(message.text()))
    tab.on('request', (request) => {
      if (new URL(request.url()).origin === serverOrigin)
        requests.push({ method: request.method(), url: request.url(), headers: request.headers() })
    })
    try {
      await tab.goto(`${siteUrl}?${new URLSearchParams({ clickhouse: server.httpUrl, ...query })}`)
      // 18.16 never answers a preflight: a request that needs one would wait here until the timeout.
      await tab.waitForFunction(
        () => document.getElementById('status')?.textContent !== 'loading',
        undefined,
        {
          timeout: 45_000,
        },
      )
      const status = await tab.textContent('#status')
      expect(status, consoleLines.join('\n')).toBe('done')
      return { result: JSON.parse((await tab.textContent('#result')) ?? '{}'), requests }
    } finally {
      await tab.close()
    }
  }

  /** What Node's client gives for the same failing calls over HTTP, to compare with the page's. */
  async function nodeErrors(): Promise<{ error: Record<string, unknown>; abort: Record<string, unknown> }> {
    await using ch = createClient(server.httpUrl)
    const error = (await thrown(() => ch.query('SELECT * FROM no_such_table_in_browser'))) as ClickHouseError
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 300)
    const abort = (await thrown(async () =>
      (await ch.query('SELECT sum(number) FROM system.numbers', { signal: controller.signal })).rows(),
    )) as AbortError
    return {
      error: { name: error.name, code: error.code, clickHouseError: error instanceof ClickHouseError },
      abort: { name: abort.name, abortError: abort instanceof AbortError },
    }
  }

  /** Waits until the server no longer runs `queryId`; false after 5 s. */
  async function stoppedOnServer(queryId: string): Promise<boolean> {
    await using ch = createClient(server.httpUrl)
    for (let attempt = 0; attempt < 100; attempt++) {
      const rs = await ch.query(`SELECT count() AS n FROM system.processes WHERE query_id = '${queryId}'`)
      if ((await rs.rows())[0]?.n === 0n) return true
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return false
  }

  it('the bundle is the browser entry: no Node module, no undici', () => {
    expect(code).toContain('createHttpTransport')
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:|["']node:[a-z_/]+["']/)
    expect(code).not.toMatch(/from\s*["']undici|import\(\s*["']undici|require\(\s*["']undici/)
  })

  const users = [
    { name: 'the default user, createClient(url) alone', account: undefined },
    { name: 'a password user, createClient({ url, username, password })', account: server.users.password },
  ] as const

  it.each(users)(
    '$name: query, insert, ping, errors and abort',
    async ({ account }) => {
      if (account && !server.hasTestUsers) return
      const table = uniqueTable('browser_client')
      tables.push(table)
      const abortQueryId = `browser-abort-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
      const query: Record<string, string> = { table, abortQueryId }
      if (account) Object.assign(query, { user: account.user, password: account.password })
      const { result, requests } = await open(query)
      const node = await nodeErrors()

      expect(result.ping).toBe('ok')
      expect(result.rows).toEqual([
        { n: '0', doubled: '0', text: 'é€' },
        { n: '1', doubled: '2', text: 'é€' },
        { n: '2', doubled: '4', text: 'é€' },
      ])
      expect(result.rowsWritten).toBe(3)
      expect(result.readBack).toEqual([
        { n: '1', s: 'one', d: 0.5 },
        { n: '2', s: 'é€ two', d: null },
        { n: '3', s: '', d: -1e300 },
      ])
      // The server's own code, as the same query gives in Node.
      expect(result.error).toMatchObject({
        ...node.error,
        name: 'ClickHouseError',
        code: 60,
        clickHouseError: true,
      })
      expect(result.abort).toMatchObject({ ...node.abort, name: 'AbortError', abortError: true })
      // The abort comes at 300 ms; the query would run on for good.
      expect(result.abortMs as number).toBeLessThan(300 + loadSlackMs)
      // The abort reached the server (a KILL QUERY, itself a simple request).
      expect(await stoppedOnServer(abortQueryId)).toBe(true)
      expect(result.afterAbort).toEqual({ after: 1 })
      expect(result.basicAuth).toMatchObject({ name: 'UsageError', usageError: true })
      expect(result.basicAuth).toMatchObject({ message: expect.stringContaining('simpleRequests: false') })
      expect(result.serverVersion).toBe(/^\d+\.\d+\.\d+/.exec(server.version)![0])
      if (account) expect(JSON.stringify(result.error)).not.toContain(account.password)

      // Every request was a simple one: POST, safelisted headers, text/plain, credentials and
      // the CORS setting in the URL.
      expect(requests.length).toBeGreaterThan(5)
      for (const request of requests) {
        expect(request.method).toBe('POST')
        // `sec-*` headers are the browser's own (client hints): a page cannot set them.
        const custom = Object.keys(request.headers).filter(
          (name) => !safeHeaders.has(name) && !name.startsWith('sec-'),
        )
        expect(custom).toEqual([])
        expect(request.headers['content-type']).toMatch(/^text\/plain/)
        const fields = new URL(request.url).searchParams
        expect(fields.get('add_http_cors_header')).toBe('1')
        expect(fields.get('user')).toBe(account?.user ?? 'default')
        expect(fields.get('password')).toBe(account ? account.password : null)
      }
      // The insert went out as Native with a text/plain content type: the FORMAT decides.
      expect(
        requests.some((request) =>
          /INSERT INTO .* FORMAT Native/.test(new URL(request.url).searchParams.get('query') ?? ''),
        ),
      ).toBe(true)
    },
    120_000,
  )

  it('tells a wrong password from a server that is down', async () => {
    const downUrl = `http://127.0.0.1:${await deadPort()}`
    // A user who has a password, given the wrong one (the harness's account, where it has one).
    const wrongUser = server.hasTestUsers ? server.users.password.user : 'default'
    const { result } = await open({ mode: 'refused', downUrl, wrongUser })
    const hint =
      'the server is up (it answered /ping) but its answer to this request had no CORS headers, as ClickHouse answers when it refuses the user name or password (or a request needing a CORS preflight it does not allow): check the user name and password'
    if (server.line === '26.9') {
      // 26.9 sends its CORS headers with the authentication error too: the page reads it
      // (516 AUTHENTICATION_FAILED).
      expect(result.wrongPassword).toMatchObject({
        name: 'ClickHouseError',
        code: 516,
        clickHouseError: true,
      })
    } else {
      // 18.16 and 26.7 answer it without: fetch says only `Failed to fetch`, and the probe adds why.
      expect(result.wrongPassword).toMatchObject({
        name: 'ConnectionError',
        message: expect.stringContaining(hint),
      })
    }
    expect(JSON.stringify(result.wrongPassword)).not.toContain('not-the-password')
    // Nothing listens there: the /ping probe fails too, and the error says no more than fetch.
    expect(result.down).toMatchObject({
      name: 'ConnectionError',
      message: expect.stringContaining('Failed to fetch'),
    })
    expect((result.down as { message: string }).message).not.toContain('/ping')
  }, 60_000)

  // 26.9 answers the CORS preflight itself, with `Access-Control-Allow-Origin: *` and the
  // Authorization and X-ClickHouse-* headers allowed (measured with curl: 204): there the
  // control shows normal requests getting through as well.
  const preflightAnswered = server.line === '26.9'
  it(`the control: normal requests (simpleRequests: false) ${preflightAnswered ? 'get through from the page too on 26.9, which answers the CORS preflight with Access-Control-Allow-Origin: *' : 'do not get through from the page'}`, async () => {
    const { result } = await open({ mode: 'normal' })
    // 18.16 never answers the preflight (the ping times out); 26.7 answers it without CORS
    // headers, so the browser refuses at once.
    if (preflightAnswered) {
      expect(result.ping).toBe('ok')
    } else if (server.generation === 'legacy') {
      expect(result.ping).toMatchObject({ name: 'TimeoutError' })
      expect(result.pingMs as number).toBeGreaterThanOrEqual(2900)
    } else {
      // The name tells the refusal from the 3 s timeout; the bound only fails a hang.
      expect(result.ping).toMatchObject({ name: 'ConnectionError' })
      expect(result.pingMs as number).toBeLessThan(2900 + loadSlackMs)
    }
  }, 60_000)
})
