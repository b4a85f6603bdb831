import { describe, expect, it } from 'vitest'
import type { Point } from './bench-results.js'
import { chooseVariants, planJobs } from './bench-run.js'
import {
  atRevision,
  baselinesOf,
  olderStringRevision,
  revisionBaseId,
  sections,
  variants,
} from './scenario-catalog.js'
import { numbersQuery, numbersStringsQuery, ontimeQuery, queryOf } from './scenario-queries.js'

describe('the scenario catalog', () => {
  it('has unique variant ids, each in a known section', () => {
    expect(new Set(variants.map((variant) => variant.id)).size).toBe(variants.length)
    for (const variant of variants) expect(sections.map((section) => section.id)).toContain(variant.section)
  })

  it('has a clickwire native and HTTP baseline in every section but the plain-text one', () => {
    for (const section of sections) {
      const { native, http } = baselinesOf(section.id)
      if (section.id === 'plain') expect(native ?? http).toBeUndefined()
      else expect([native?.client, http?.client]).toEqual(['clickwire-native', 'clickwire-http'])
    }
  })

  it('sets native arrow(), HTTP arrow(), HTTP queryArrow() and clickhouse-connect side by side', () => {
    for (const [section, own, connect] of [
      ['arrow', '18', '20'],
      ['arrow-ints', '21', '22'],
      ['arrow-strings', '23', '24'],
    ] as const) {
      const labels = variants.filter((variant) => variant.section === section).map((variant) => variant.label)
      expect(labels).toEqual(
        expect.arrayContaining([
          `clickwire native arrow() (${own})`,
          `clickwire HTTP arrow() (${own})`,
          `clickwire HTTP queryArrow() (${own})`,
          `clickhouse-connect (${connect})`,
        ]),
      )
    }
  })

  it('carries the reference scenario numbers in the labels', () => {
    const labels = variants.map((variant) => variant.label)
    for (const number of [
      '(1)',
      '(2)',
      '(2.5)',
      '(3)',
      '(4)',
      '(7)',
      '(10)',
      '(13)',
      '(14)',
      '(18)',
      '(19)',
      '(20)',
    ]) {
      expect(labels.some((label) => label.endsWith(number))).toBe(true)
    }
    for (const number of ['(21)', '(22)', '(23)', '(24)', '(15)', '(16)', '(17)']) {
      expect(labels.some((label) => label.endsWith(number))).toBe(true)
    }
  })

  it('builds the queries of the reference scripts', () => {
    expect(ontimeQuery('rows', '2017-01-04')).toBe(
      "SELECT * FROM perftest.ontime WHERE FlightDate < '2017-01-04'",
    )
    expect(ontimeQuery('arrow-ints', '2017-01-04')).toMatch(
      /^SELECT Year, Quarter, Month, .* Div5AirportSeqID FROM/,
    )
    expect(numbersQuery(500e6)).toBe('SELECT number FROM system.numbers_mt LIMIT 500000000')
    expect(numbersStringsQuery(100e6)).toBe('SELECT toString(number) FROM system.numbers_mt LIMIT 100000000')
    expect(queryOf('numbers-strings', '10')).toBe(numbersStringsQuery(10))
    expect(queryOf('arrow-strings', '2017-01-04')).toBe(ontimeQuery('arrow-strings', '2017-01-04'))
    expect(() => ontimeQuery('rows', "2017-01-04' OR 1")).toThrow('a cutoff is a date')
  })
})

describe('the 54488 copies of the String-dependent variants', () => {
  const copies = variants.filter((variant) => variant.protocolRevision !== undefined)

  it('follow their variant, differ only in id, label and revision, and keep its quick flag', () => {
    expect(copies.map((copy) => copy.id).sort()).toEqual(
      [
        'arrow-strings/cw-http-arrow',
        'arrow-strings/cw-native-arrow',
        'chbench-strings/cw-http',
        'chbench-strings/cw-http-blocks',
        'chbench-strings/cw-native-lz4',
        'chbench-strings/cw-native-lz4-blocks',
        'parsed/cw-http-rows',
        'parsed/cw-native-rows',
        'strings/cw-http-columns',
        'strings/cw-http-iterate',
        'strings/cw-native-columns',
        'strings/cw-native-iterate',
      ]
        .map((id) => `${id}@${olderStringRevision}`)
        .sort(),
    )
    for (const copy of copies) {
      const index = variants.indexOf(copy)
      const base = variants[index - 1]!
      expect(revisionBaseId(copy)).toBe(base.id)
      expect(copy).toEqual({
        ...base,
        id: `${base.id}@54488`,
        label: `${base.label} @54488`,
        protocolRevision: 54488,
      })
    }
  })

  it("leave the sections' baselines at clickwire's own revision", () => {
    for (const section of sections) {
      const { native, http } = baselinesOf(section.id)
      expect(native?.protocolRevision ?? http?.protocolRevision).toBeUndefined()
    }
  })

  it('are made for clickwire only', () => {
    const peer = variants.find((variant) => variant.client === 'clickhouse-connect')!
    expect(() => atRevision(peer, 54488)).toThrow(/only clickwire/)
    expect(revisionBaseId(peer)).toBeUndefined()
  })
})

describe('planJobs', () => {
  const points: Point[] = [
    { id: 'a', label: 'a', argument: '2017-01-04', expectedRows: 1 },
    { id: 'b', label: 'b', argument: '2017-02-18', expectedRows: 2 },
  ]

  it('interleaves the variants of a point and rotates their order each repetition', () => {
    const chosen = chooseVariants({ sections: ['arrow-ints'], clients: undefined, allVariants: true })
    const jobs = planJobs(chosen, () => points, 3)
    expect(jobs).toHaveLength(chosen.length * points.length * 3)
    const order = (repetition: number, point: string) =>
      jobs
        .filter((job) => job.repetition === repetition && job.point.id === point)
        .map((job) => job.variant.id)
    const first = order(0, 'a')
    expect(order(0, 'b')).toEqual(first)
    expect(order(1, 'a')).toEqual([...first.slice(1), first[0]])
    expect(order(2, 'a')).toEqual([...first.slice(2), ...first.slice(0, 2)])
    // Repetition by repetition: every run of repetition 0 comes before any of repetition 1.
    const lastOfFirst = jobs.findLastIndex((job) => job.repetition === 0)
    expect(jobs.findIndex((job) => job.repetition === 1)).toBe(lastOfFirst + 1)
  })

  it('keeps the quick run to the quick variants, filtered by section and client', () => {
    const quick = chooseVariants({ sections: undefined, clients: undefined, allVariants: false })
    expect(quick.every((variant) => variant.quick)).toBe(true)
    expect(quick.map((variant) => variant.id)).not.toContain('parsed/compat-http-json')
    expect(quick.length).toBeLessThan(variants.length)
    const onlyOurs = chooseVariants({
      sections: ['parsed', 'chbench'],
      clients: ['clickwire-native'],
      allVariants: true,
    })
    expect(onlyOurs.map((variant) => variant.id)).toEqual([
      'parsed/cw-native-rows',
      'parsed/cw-native-rows@54488',
      // The drop-in over native, in --all runs only.
      'parsed/compat-native-json',
      'chbench/cw-native-lz4',
      'chbench/cw-native-none',
    ])
  })
})
