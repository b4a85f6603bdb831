// Settings, query events, server logs, external tables and {name:Type} parameters, on 18.16 and 26.x.
import type { NativeBlock, ProfileInfo, Progress, ServerLogEntry } from '@clickwire/protocol'
import { clientRevision } from '@clickwire/protocol'
import { latestServerLogsMissing, parameterCases, serverRevisionOf } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { NativeTransport } from '../src/index.js'
import { collect, firstValue, nativeOn, rowsOf } from './support/native-helpers.js'

const server = inject('clickhouse')
const modern = server.generation === 'modern'
const latest = server.line === '26.9'
let native: NativeTransport

beforeAll(() => {
  native = nativeOn(server, { settings: { max_threads: 3, max_block_size: 12_345 } })
})

afterAll(async () => {
  await native.close()
})

const settingSql = (name: string) => `SELECT value, changed FROM system.settings WHERE name = '${name}'`

describe('settings', () => {
  it('sends the client settings with every query, and per-query settings over them', async () => {
    expect(await rowsOf(native, settingSql('max_threads'))).toEqual([['3', 1]])
    expect(await rowsOf(native, settingSql('max_block_size'))).toEqual([['12345', 1]])
    // Not 2: on this 2-core machine 26.x shows a value equal to its default as 'auto(2)', unchanged.
    const options = {
      settings: { max_threads: 1, send_logs_level: 'error', extremes: true, max_bytes_to_read: 10n ** 12n },
    }
    expect(await rowsOf(native, settingSql('max_threads'), options)).toEqual([['1', 1]])
    expect(await rowsOf(native, settingSql('send_logs_level'), options)).toEqual([['error', 1]])
    expect(await rowsOf(native, settingSql('extremes'), options)).toEqual([['1', 1]])
    expect(await rowsOf(native, settingSql('max_bytes_to_read'), options)).toEqual([['1000000000000', 1]])
    // The per-query value applied to that query only.
    expect(await rowsOf(native, settingSql('max_threads'))).toEqual([['3', 1]])
    // The client's block size shapes the result.
    const stream = await native.query('SELECT number FROM numbers(30000)')
    const sizes: number[] = []
    for await (const block of stream) sizes.push(block.rows)
    expect(sizes).toEqual([12_345, 12_345, 5_310])
  })

  it('reports the server it talks to', async () => {
    const info = await native.serverInfo()
    expect(info).toEqual({
      name: 'ClickHouse',
      version: latest ? '26.9.2' : modern ? '26.7.2' : '18.16.1',
      // The smaller of the client's revision and the one the server's Hello announces.
      revision: Math.min(clientRevision, serverRevisionOf(server) ?? clientRevision),
      timezone: expect.stringMatching(/^(Etc\/)?UTC$/),
      displayName: expect.any(String),
    })
  })
})

describe('query events', () => {
  it('reports Progress, ProfileInfo, Totals and Extremes', async () => {
    const progress: Progress[] = []
    const totals: Progress[] = []
    const infos: ProfileInfo[] = []
    const totalBlocks: NativeBlock[] = []
    const extremeBlocks: NativeBlock[] = []
    const stream = await native.query(
      'SELECT number % 3 AS k, count() AS c, sum(number) AS s FROM numbers(100) GROUP BY k WITH TOTALS ORDER BY k',
      {
        settings: { extremes: 1 },
        onProgress: (increment, total) => {
          progress.push(increment)
          totals.push(total)
        },
        onProfileInfo: (info) => infos.push(info),
        onTotals: (block) => totalBlocks.push(block),
        onExtremes: (block) => extremeBlocks.push(block),
      },
    )
    const result = await collect(stream)
    expect(result.columns).toEqual([
      [0, 1, 2],
      [34n, 33n, 33n],
      [1683n, 1617n, 1650n],
    ])
    const values = (block: NativeBlock) => block.columns.map((column) => column.column.values())
    expect(totalBlocks).toHaveLength(1)
    expect(values(totalBlocks[0]!).map((column) => Array.from(column as ArrayLike<unknown>))).toEqual([
      [0],
      [100n],
      [4950n],
    ])
    expect(stream.totals).toBe(totalBlocks[0])
    expect(extremeBlocks).toHaveLength(1)
    expect(values(extremeBlocks[0]!).map((column) => Array.from(column as ArrayLike<unknown>))).toEqual([
      [0, 2],
      [33n, 34n],
      [1617n, 1683n],
    ])
    expect(infos).toHaveLength(1)
    expect(infos[0]).toMatchObject({
      type: 'ProfileInfo',
      rows: 3,
      blocks: 1,
      calculatedRowsBeforeLimit: true,
    })
    expect(stream.profileInfo).toBe(infos[0])
    expect(progress.length).toBeGreaterThan(0)
    expect(totals.at(-1)!.readRows).toBe(100)
    expect(stream.progress.readRows).toBe(100)
    expect(stream.progress.readBytes).toBe(800)
  })

  it.skipIf(latest)(
    `delivers server log lines (send_logs_level)${latest ? ` (skipped on 26.9: ${latestServerLogsMissing})` : ''}`,
    async () => {
      // 18.16 only forwards messages that also pass its own logger level (the harness runs it
      // at "warning"), so the query makes an error message: the exception log.
      const entries: ServerLogEntry[] = []
      const queryId = `logs-${Date.now()}`
      const error = await native
        .query('SELECT throwIf(number = 3) FROM numbers(10)', {
          queryId,
          settings: { send_logs_level: 'error' },
          onLog: (batch) => entries.push(...batch),
        })
        .catch((caught) => caught)
      expect(error).toMatchObject({ code: 395 })
      expect(entries).toHaveLength(1)
      expect(entries[0]).toMatchObject({ queryId, priority: 3, source: 'executeQuery' })
      // Each generation's own exception text (26.x: `Code: 395. DB::Exception: ... non-zero`).
      expect(entries[0]!.text).toMatch(
        modern
          ? /^Code: 395\. DB::Exception: Value passed to 'throwIf' function is non-zero: .* \(FUNCTION_THROW_IF_VALUE_IS_NON_ZERO\) \(version 26\.7\.2\.1\) \(from 127\.0\.0\.1:\d+\) \(in query: SELECT throwIf\(number = 3\) FROM numbers\(10\)\)/
          : /^Code: 395, e\.displayText\(\) = DB::Exception: Value passed to 'throwIf' function is non zero/,
      )
      expect(entries[0]!.time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/)
      // No log level asked: no Log packet.
      const none: ServerLogEntry[] = []
      await native
        .query('SELECT throwIf(1)', { onLog: (batch) => none.push(...batch) })
        .catch(() => undefined)
      expect(none).toEqual([])
    },
  )
})

describe('external tables', () => {
  it('sends tables given as rows and as columns along with the query', async () => {
    const rows = await rowsOf(
      native,
      'SELECT sum(x), groupArray(s), (SELECT groupArray(d) FROM dates) FROM ext',
      {
        externalTables: [
          {
            name: 'ext',
            columns: [
              { name: 'x', type: 'UInt32' },
              { name: 's', type: 'Nullable(String)' },
            ],
            data: [
              { x: 1, s: "it's" },
              { x: 2, s: null },
              { x: 4294967295, s: 'é' },
            ],
          },
          {
            name: 'dates',
            columns: [{ name: 'd', type: 'Date' }],
            data: { d: ['2020-02-29', '1970-01-01'] },
          },
        ],
      },
    )
    expect(rows).toEqual([[4294967298n, ["it's", 'é'], ['2020-02-29', '1970-01-01']]])
  })

  it('joins a large external table', async () => {
    const ids = Uint32Array.from({ length: 200_000 }, (_, i) => i * 2)
    const value = await firstValue(
      native,
      'SELECT count() FROM numbers(400000) WHERE toUInt32(number) IN (SELECT id FROM ids)',
      { externalTables: [{ name: 'ids', columns: [{ name: 'id', type: 'UInt32' }], data: { id: ids } }] },
    )
    expect(value).toBe(200_000n)
  })
})

describe(
  modern
    ? '{name:Type} parameters on 26.x (sent as server-side parameters)'
    : '{name:Type} parameters on 18.16 (revision 54412: substituted here)',
  () => {
    const legacyCases = parameterCases.filter((each) => each.legacy !== undefined)

    it('gives exactly what the reference substitution gives, for every case 18.16 can run', async () => {
      expect(legacyCases.length).toBeGreaterThan(40)
      for (const [index, each] of legacyCases.entries()) {
        const [withParams] = await rowsOf(native, `SELECT {v:${each.type}} AS v, toTypeName(v) AS t`, {
          params: { v: each.value },
        })
        const [reference] = await rowsOf(native, `SELECT ${each.sql} AS v, toTypeName(v) AS t`)
        expect([index, each.type, withParams]).toEqual([index, each.type, reference])
        // The type 18.16 printed for the value in the protocol package's own test; 26.x prints
        // the fields of a named Tuple one per line, `Tuple(\n    a String,\n    b Float64)`.
        const printedType = each.legacy!.split('\t').at(-1)!.replace(/\\(.)/g, '$1')
        const onOneLine = modern
          ? (withParams![1] as string).replace(/\(\n\s+/g, '(').replace(/,\n\s+/g, ', ')
          : withParams![1]
        expect(onOneLine).toBe(printedType)
      }
    })

    it('keeps hostile strings inert', async () => {
      const hostile = "x'); DROP TABLE t; --\\' {v:String} \n"
      expect(
        await rowsOf(native, 'SELECT {a:String} AS a, {b:Array(String)} AS b, {n:Nullable(UInt8)} AS n', {
          params: { a: hostile, b: [hostile, ''], n: null },
        }),
      ).toEqual([[hostile, [hostile, ''], null]])
    })
  },
)
