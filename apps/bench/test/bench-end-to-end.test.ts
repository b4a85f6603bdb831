import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createClient } from '@clickwire/client'
import { findClientCommand } from '@clickwire/testing'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { BenchReport } from '../src/bench-results.js'
import { type RunOptions, runBench } from '../src/bench-run.js'
import { generateDay } from '../src/ontime-generator.js'
import { ensureOntimeDataset } from '../src/ontime-loader.js'
import { ontimeColumns } from '../src/ontime-schema.js'
import { renderRstReport } from '../src/report-rst.js'
import type { ClientId } from '../src/scenario-catalog.js'

const root = resolve(import.meta.dirname, '..')
const server = inject('clickhouse')
const cliInstalled = findClientCommand() !== undefined
const curlInstalled = existsSync('/usr/bin/curl')

// The bench runs its children from dist/ (Node 20 cannot run .ts): build it first.
beforeAll(() => {
  execFileSync(
    process.execPath,
    [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
}, 180_000)

describe('the bench, end to end on the test server', () => {
  let report: BenchReport

  beforeAll(async () => {
    const clients: ClientId[] = ['clickwire-native', 'clickwire-http']
    if (cliInstalled) clients.push('clickhouse-client')
    if (curlInstalled) clients.push('curl')
    const options: RunOptions = {
      mode: 'custom',
      repetitions: 1,
      // One day of flights: the first cutoff of a tiny dataset.
      datasetLastDay: '2017-01-01',
      cutoffs: [{ date: '2017-01-02', label: '13k' }],
      numbers: [1_000_000],
      sections: ['parsed', 'insert', 'chbench'],
      clients,
      allVariants: true,
      reload: true,
      timeoutMs: 120_000,
      paths: {
        root,
        dist: resolve(root, 'dist'),
        python: resolve(root, 'python'),
        peers: resolve(root, '.peers'),
        data: resolve(root, '.data', 'test'),
      },
      server,
      progress: false,
    }
    report = await runBench(options)
  }, 300_000)

  it('loads the generated day through the native insert and counts it', () => {
    expect(report.dataset.source).toBe('generated')
    expect(report.dataset.rows).toBe(13473)
    expect(report.dataset.rowsPerSecond).toBeGreaterThan(0)
    expect(report.dataset.cutoffRows).toEqual({ '2017-01-02': 13473 })
    expect(report.server.version).toBe(server.version)
  })

  it('measures every chosen variant with its own process and checks the rows it read', () => {
    const cells = report.sections.flatMap((section) =>
      section.variants.map((variant) => ({ id: variant.id, cell: Object.values(variant.cells)[0]! })),
    )
    const expected = [
      'parsed/cw-native-rows',
      'parsed/cw-native-rows@54488',
      'parsed/cw-http-rows',
      'parsed/cw-http-rows@54488',
      'parsed/compat-http-json',
      'parsed/compat-native-json',
      ...(cliInstalled ? ['parsed/cli-null'] : []),
      'insert/cw-native-insert',
      'insert/cw-http-insert',
      ...(cliInstalled ? ['insert/cli-native'] : []),
      'chbench/cw-native-lz4',
      'chbench/cw-native-none',
      'chbench/cw-http',
      ...(cliInstalled ? ['chbench/cli-lz4', 'chbench/cli-none'] : []),
      ...(curlInstalled ? ['chbench/curl-native'] : []),
    ]
    expect(cells.map((each) => each.id)).toEqual(expected)
    // The @54488 copies run only where clickwire and the server would otherwise speak more.
    const copiesRun = (report.server.revision ?? 0) > 54488
    for (const { id, cell } of cells) {
      if (id.endsWith('@54488') && !copiesRun) {
        expect({ id, error: cell.error }).toEqual({ id, error: expect.stringMatching(/same as the default/) })
        continue
      }
      expect({ id, error: cell.error }).toEqual({ id, error: undefined })
      expect(cell.runs).toHaveLength(1)
      expect(cell.medianMs).toBeGreaterThan(0)
      if (id.includes('/cw-')) {
        // Our children report their own peak RSS: a Node process, well above 20 MB.
        expect(cell.medianRssBytes).toBeGreaterThan(20e6)
        expect(cell.runs[0]!.rows).toBe(id.startsWith('chbench') ? 1_000_000 : 13473)
      }
    }
  })

  it('renders the table and keeps a complete dataset on the next run', async () => {
    const text = renderRstReport(report)
    // The label column is as wide as the longest label: the drop-in's over native (55).
    const longest = '@clickwire/client/compat native JSONEachRow json() (4)'
    expect(text).toContain(`|${longest}|`)
    expect(text).toContain(`|${'clickwire native rows() (4)'.padEnd(longest.length)}|`)
    if (cliInstalled)
      expect(text).toContain(`|${'clickhouse-client --format Null (4)'.padEnd(longest.length)}|`)
    expect(text).toContain(`ClickHouse server: ${server.version}`)
    const client = createClient({
      url: server.nativeUrl,
      username: server.users.default.user,
      password: server.users.default.password,
    })
    try {
      const again = await ensureOntimeDataset(client, { lastDay: '2017-01-01' })
      expect(again.source).toBe('existing')
      expect(again.rows).toBe(13473)
    } finally {
      await client.close()
    }
  })
})

describe('--from-csv', () => {
  it('loads BTS-style CSV files through the native insert instead of generating', async () => {
    // 300 generated flights written the way BTS does: quoted strings, `.00` on numbers.
    const day = generateDay('2017-01-05', 300)
    const date = (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10)
    const lines = [`${ontimeColumns.map(([name]) => `"${name}"`).join(',')},`]
    for (let row = 0; row < day.rows; row++) {
      const fields = ontimeColumns.map(([name, type]) => {
        const value = day.columns[name]![row]!
        if (type === 'Date') return date(Number(value))
        if (type === 'String' || type.startsWith('FixedString')) return `"${value}"`
        return name.endsWith('Delay') ? `${value}.00` : String(value)
      })
      lines.push(`${fields.join(',')},`)
    }
    const folder = await mkdtemp(join(tmpdir(), 'clickwire-bts-'))
    const client = createClient({
      url: server.nativeUrl,
      username: server.users.default.user,
      password: server.users.default.password,
    })
    try {
      await writeFile(join(folder, 'On_Time_2017_1.csv'), `${lines.join('\r\n')}\r\n`)
      const report = await ensureOntimeDataset(client, { fromCsv: folder })
      expect(report.source).toBe('csv')
      expect(report.rows).toBe(300)
      const rows = await (
        await client.query(
          "SELECT count(), sum(DepDelay), min(FlightDate), any(OriginCityName) FROM perftest.ontime WHERE OriginCityName = 'Atlanta, GA'",
        )
      ).arrays()
      const atl = [...Array(300).keys()].filter((row) => (day.columns.Origin as string[])[row] === 'ATL')
      const delays = atl.reduce((sum, row) => sum + (day.columns.DepDelay as Int32Array)[row]!, 0)
      expect(rows).toEqual([[BigInt(atl.length), BigInt(delays), '2017-01-05', 'Atlanta, GA']])
      expect((await ensureOntimeDataset(client, { fromCsv: folder })).source).toBe('existing')
    } finally {
      await client.close()
      await rm(folder, { recursive: true, force: true })
    }
  })
})
