// The browser/edge entry: bundled for a browser (no `node` export condition), it pulls in
// no `node:*` module, and the bundle itself runs: HTTP queries work, clickhouse:// URLs
// fail with a UsageError. The Node entry, bundled the same way, does need node modules
// (which shows the check can fail).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { server, transports, urlFor } from './support/transports.js'

interface Bundle {
  /** Node built-in modules and native addons the entry reached. */
  readonly nodeModules: string[]
  /** Where the bundle was written. */
  readonly dir: string
}

/** Bundles an entry of the package as a browser would get it. */
async function bundle(entry: string): Promise<Bundle> {
  const nodeModules: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'clickwire-browser-'))
  await build({
    configFile: false,
    logLevel: 'silent',
    root: fileURLToPath(new URL('..', import.meta.url)),
    resolve: {
      // What a browser bundler uses: our source condition, never `node`.
      conditions: ['@clickwire/source', 'browser', 'module', 'import', 'default'],
      mainFields: ['browser', 'module', 'main'],
    },
    build: {
      outDir: dir,
      minify: false,
      lib: { entry: fileURLToPath(new URL(entry, import.meta.url)), formats: ['es'], fileName: 'client' },
      rollupOptions: {
        // Node built-ins and native addons (LZ4) exist only in Node: each one reached is noted.
        external: (id: string) => {
          const nodeOnly =
            id.startsWith('node:') || builtinModules.includes(id) || id === 'lz4-napi' || id.endsWith('.node')
          if (nodeOnly) nodeModules.push(id)
          return nodeOnly
        },
      },
    },
  })
  return { nodeModules: [...new Set(nodeModules)].sort(), dir }
}

let browser: Bundle
let clientModule: typeof import('../src/index-browser.js')

beforeAll(async () => {
  browser = await bundle('../src/index-browser.ts')
  clientModule = await import(pathToFileURL(join(browser.dir, 'client.js')).href)
}, 120_000)

afterAll(() => {
  rmSync(browser.dir, { recursive: true, force: true })
})

describe.each(transports)('%s', (transport) => {
  it('imports no node:* module in the browser entry', () => {
    expect(browser.nodeModules).toEqual([])
  })

  if (transport === 'http') {
    it('runs queries from the bundle over HTTP (fetch)', async () => {
      await using ch = clientModule.createClient(urlFor('http'))
      const rs = await ch.query<{ n: bigint; s: string }>(
        clientModule.sql`SELECT number AS n, toString(number) AS s FROM system.numbers LIMIT ${2}`,
      )
      expect(await rs.rows()).toEqual([
        { n: 0n, s: '0' },
        { n: 1n, s: '1' },
      ])
      expect(server.httpUrl).toBe(urlFor('http'))
    })

    it('loads apache-arrow from its own chunk for arrow(), and inserts from the bundle', async () => {
      // The bundler split the lazily imported Arrow code off the entry.
      expect(readdirSync(browser.dir).filter((file) => file.startsWith('arrow-table'))).toHaveLength(1)
      expect(readFileSync(join(browser.dir, 'client.js'), 'utf8')).not.toContain('RecordBatchReader')
      await using ch = clientModule.createClient(urlFor('http'))
      const table = await (await ch.query('SELECT number AS n FROM system.numbers LIMIT 3')).arrow()
      expect(table.numRows).toBe(3)
      expect(Array.from(table.getChild('n')!.toArray() as BigUint64Array)).toEqual([0n, 1n, 2n])
      const name = `browser_insert_${Date.now().toString(36)}`
      await ch.command(`CREATE TABLE ${name} (n UInt8) ENGINE = Memory`)
      try {
        expect(await ch.insert(name, [{ n: 7 }])).toMatchObject({ rowsWritten: 1 })
      } finally {
        await ch.command(`DROP TABLE ${name}`)
      }
    })
  } else {
    it('refuses clickhouse:// with a UsageError that says why', () => {
      expect(() => clientModule.createClient(urlFor('native'))).toThrow(clientModule.UsageError)
      expect(() => clientModule.createClient(urlFor('native'))).toThrow(/need TCP sockets/)
    })
  }
})

describe('the Node entry', () => {
  it('reaches node modules when bundled the same way (the check above can fail)', async () => {
    const node = await bundle('../src/index.ts')
    try {
      expect(node.nodeModules).toEqual(expect.arrayContaining(['node:net']))
    } finally {
      rmSync(node.dir, { recursive: true, force: true })
    }
  }, 120_000)
})
