import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join } from 'node:path'

/** Debian's Chromium, installed by scripts/bootstrap.sh; browser tests skip without it. */
export const chromiumPath = '/usr/bin/chromium'

/**
 * Flags for headless Chromium on this machine kind: no sandbox (tests run as root), and no
 * background networking, whose connections the closed network refuses by the dozen.
 */
export const chromiumArgs: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
]

const contentTypes: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
}

/** A static site on a free loopback port: another origin than the ClickHouse server. */
export interface StaticSite {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string
  close(): Promise<void>
}

/** Serves the files of `dir` (`/` is `index.html`); anything else is a 404. */
export async function serveStaticSite(dir: string): Promise<StaticSite> {
  const site = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    const file = join(dir, path === '/' ? 'index.html' : path.slice(1))
    try {
      const body = await readFile(file)
      response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' })
      response.end(body)
    } catch {
      response.writeHead(404)
      response.end()
    }
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  const address = site.address()
  if (!address || typeof address === 'string') throw new Error('the static site has no port')
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  }
}
