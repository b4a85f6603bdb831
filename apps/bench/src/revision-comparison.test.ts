import { describe, expect, it } from 'vitest'
import { measured } from '../test/support/report-fixture.js'
import type { SectionResult, VariantResult } from './bench-results.js'
import { renderRevisionTable, revisionRows, stringLayoutChecks } from './revision-comparison.js'

const points = [
  { id: '45k', label: '45k', argument: '2017-01-04', expectedRows: 45202 },
  { id: '697k', label: '697k', argument: '2017-02-18', expectedRows: 697813 },
]

function ours(id: string, label: string, ms: [number, number], revision?: number): VariantResult {
  return {
    id: revision ? `${id}@${revision}` : id,
    label: revision ? `${label} @${revision}` : label,
    client: 'clickwire-native',
    ours: true,
    protocolRevision: revision,
    cells: { '45k': measured(ms[0], 1e6), '697k': measured(ms[1], 1e6) },
  }
}

const strings: SectionResult = {
  id: 'strings',
  title: 'Iteration over string rows',
  axis: 'cutoff',
  points,
  variants: [
    ours('strings/cw-native-columns', 'clickwire native columns() (10)', [50, 400]),
    ours('strings/cw-native-columns', 'clickwire native columns() (10)', [90, 1000], 54488),
  ],
}

const arrowStrings: SectionResult = {
  id: 'arrow-strings',
  title: 'Arrow tables, string columns',
  axis: 'cutoff',
  points,
  variants: [
    ours('arrow-strings/cw-native-arrow', 'clickwire native arrow() (23)', [60, 500]),
    ours('arrow-strings/cw-native-arrow', 'clickwire native arrow() (23)', [80, 900], 54488),
    {
      id: 'arrow-strings/connect-arrow',
      label: 'clickhouse-connect (24)',
      client: 'clickhouse-connect',
      ours: false,
      cells: { '45k': measured(100, 1e6), '697k': measured(750, 1e6) },
    },
  ],
}

describe('revisionRows', () => {
  it('pairs each @revision copy with its variant and divides the older time by the current one', () => {
    const rows = revisionRows({ sections: [strings, arrowStrings] })
    expect(
      rows.map((row) => [row.current.id, row.revision, row.speedup['45k'], row.speedup['697k']]),
    ).toEqual([
      ['strings/cw-native-columns', 54488, 1.8, 2.5],
      ['arrow-strings/cw-native-arrow', 54488, 80 / 60, 1.8],
    ])
  })
})

describe('stringLayoutChecks', () => {
  it('wants twice the speed at the largest point, and Arrow strings ahead of clickhouse-connect', () => {
    const checks = stringLayoutChecks({ sections: [strings, arrowStrings] })
    const measuredOnes = checks.filter((check) => check.measured !== undefined)
    expect(
      measuredOnes.map((check) => [check.description.split(',')[0], check.point, check.measured, check.met]),
    ).toEqual([
      ['string columns() (10) native', '697k', 2.5, true],
      ['arrow() string columns (23) native', '697k', 1.8, false],
      ['clickhouse-connect (24) time over arrow() string columns (23) native', '697k', 1.5, true],
    ])
    // The HTTP variants are not in this report: not measured, neither met nor failed.
    expect(checks.filter((check) => check.met === undefined)).toHaveLength(2)
  })
})

describe('renderRevisionTable', () => {
  it('shows both times and the ratio per point', () => {
    expect(renderRevisionTable({ sections: [strings] })).toBe(
      [
        '| section | clickwire variant | 45k | 697k |',
        '|:--|:--|--:|--:|',
        '| Iteration over string rows | clickwire native columns() (10) | 0.05 s vs 0.09 s (1.80×) | 0.40 s vs 1.00 s (2.50×) |',
        '',
      ].join('\n'),
    )
  })

  it('adds the bytes the server sent when the runs counted them', () => {
    const sending = (variant: VariantResult, bytes: number): VariantResult => ({
      ...variant,
      cells: Object.fromEntries(
        Object.entries(variant.cells).map(([point, cell]) => [point, { ...cell, medianSentBytes: bytes }]),
      ),
    })
    const [current, older] = strings.variants as [VariantResult, VariantResult]
    const text = renderRevisionTable({
      sections: [{ ...strings, variants: [sending(current, 343e6), sending(older, 104e6)] }],
    })
    expect(text).toContain(
      '| Iteration over string rows | clickwire native columns() (10) | 343 MB vs 104 MB (0.30×) | 343 MB vs 104 MB (0.30×) |',
    )
  })

  it('is empty without @revision results', () => {
    expect(renderRevisionTable({ sections: [{ ...strings, variants: strings.variants.slice(0, 1) }] })).toBe(
      '',
    )
  })
})
