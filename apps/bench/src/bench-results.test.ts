import { describe, expect, it } from 'vitest'
import { fixtureReport, parsedSection } from '../test/support/report-fixture.js'
import {
  cellOf,
  formatBytes,
  formatRatio,
  formatSeconds,
  goalChecks,
  median,
  ratioRows,
} from './bench-results.js'

describe('median and cells', () => {
  it('takes the middle run, or the mean of the two middle ones', () => {
    expect(median([])).toBeUndefined()
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
  })

  it('summarises only the runs that succeeded and counts the failures', () => {
    const cell = cellOf([
      { elapsedMs: 300, maxRssBytes: 30 },
      { elapsedMs: 100, maxRssBytes: 10 },
      { elapsedMs: 5, error: 'exit 1: boom' },
      { elapsedMs: 200, maxRssBytes: 20 },
    ])
    expect(cell.medianMs).toBe(200)
    expect(cell.medianRssBytes).toBe(20)
    expect(cell.failures).toBe(1)
    expect(cell.error).toBeUndefined()
    expect(cellOf([{ elapsedMs: 5, error: 'exit 1: boom' }])).toEqual({
      runs: [{ elapsedMs: 5, error: 'exit 1: boom' }],
      error: 'exit 1: boom',
    })
    expect(cellOf([], 'not installed')).toEqual({ runs: [], error: 'not installed' })
  })
})

describe('formatting', () => {
  it('prints times, memory and ratios the way the tables show them', () => {
    expect(formatSeconds(126)).toBe('0.13 s')
    expect(formatSeconds(12_345)).toBe('12.35 s')
    expect(formatSeconds(123_456)).toBe('123.5 s')
    expect(formatSeconds(undefined)).toBe('n/a')
    expect(formatBytes(61e6)).toBe('61 MB')
    expect(formatBytes(999.4e6)).toBe('999 MB')
    expect(formatBytes(1.48e9)).toBe('1.48 GB')
    expect(formatRatio(3.2)).toBe('3.20×')
    expect(formatRatio(12.34)).toBe('12.3×')
    expect(formatRatio(Number.NaN)).toBe('n/a')
  })
})

describe('ratios and goals', () => {
  it("divides each peer's median by clickwire's at the same point", () => {
    const rows = ratioRows({ sections: [parsedSection] })
    expect(rows.map((row) => [row.variant.id, row.overNative['45k'], row.overNative['697k']])).toEqual([
      ['parsed/driver-rows', 1.5, 4670 / 1460],
      ['parsed/connect-rows', undefined, undefined],
    ])
  })

  it('checks the goals of issue 11 at the largest point measured', () => {
    const checks = goalChecks(fixtureReport)
    const find = (description: string) => checks.find((check) => check.description === description)!
    expect(find('ch-bench native LZ4 vs clickhouse-client LZ4')).toMatchObject({
      goal: 'P1',
      point: '500M',
      measured: 4700 / 4470,
      met: true,
    })
    expect(find('ch-bench native LZ4 peak RSS')).toMatchObject({ measured: 80e6, met: true, unit: 'bytes' })
    expect(find('clickhouse-driver (4) over rows() (4)')).toMatchObject({
      point: '697k',
      measured: 4670 / 1460,
      met: true,
    })
    expect(find('rows() (4) vs clickhouse-client --format Null')).toMatchObject({
      measured: undefined,
      met: undefined,
    })
    expect(checks.map((check) => check.goal)).toEqual([
      'P1',
      'P1',
      'P1',
      'P2',
      'P3',
      'P3',
      'P3',
      'P4',
      'P4',
      'P5',
      'P5',
      'P5',
      'P6',
    ])
  })
})
