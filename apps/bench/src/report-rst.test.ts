import { describe, expect, it } from 'vitest'
import { chbenchSection, fixtureReport, parsedSection } from '../test/support/report-fixture.js'
import { renderRstReport, renderRstTable } from './report-rst.js'

describe('renderRstTable', () => {
  it('lays out a section like the reference grid table: spanning header, timing and memory blocks', () => {
    expect(renderRstTable([parsedSection])).toBe(
      [
        '+----------------------------------+-----------+-----------+',
        '|                                  |          Rows         |',
        '|                                  +-----------+-----------+',
        '|                                  |    45k    |    697k   |',
        '+==================================+===========+===========+',
        '|**Parsed rows: timing**                                   |',
        '+----------------------------------+-----------+-----------+',
        '|clickwire native rows() (4)       |    0.12 s |    1.46 s |',
        '+----------------------------------+-----------+-----------+',
        '|clickhouse-driver Native (4)      |    0.18 s |    4.67 s |',
        '+----------------------------------+-----------+-----------+',
        '|clickhouse-connect (14)           |       n/a |       n/a |',
        '+----------------------------------+-----------+-----------+',
        '|**Parsed rows: memory**                                   |',
        '+----------------------------------+-----------+-----------+',
        '|clickwire native rows() (4)       |     95 MB |   1.23 GB |',
        '+----------------------------------+-----------+-----------+',
        '|clickhouse-driver Native (4)      |    167 MB |   1.70 GB |',
        '+----------------------------------+-----------+-----------+',
        '|clickhouse-connect (14)           |       n/a |       n/a |',
        '+----------------------------------+-----------+-----------+',
        '',
      ].join('\n'),
    )
  })

  it('widens the label column when a section title does not fit', () => {
    expect(renderRstTable([chbenchSection])).toBe(
      [
        '+----------------------------------------------+-----------+',
        '|                                              |    Rows   |',
        '|                                              +-----------+',
        '|                                              |    500M   |',
        '+==============================================+===========+',
        '|**ch-bench: SELECT number FROM system.numbers_mt: timing**|',
        '+----------------------------------------------+-----------+',
        '|clickwire native LZ4                          |    4.70 s |',
        '+----------------------------------------------+-----------+',
        '|clickhouse-client LZ4                         |    4.47 s |',
        '+----------------------------------------------+-----------+',
        '|**ch-bench: SELECT number FROM system.numbers_mt: memory**|',
        '+----------------------------------------------+-----------+',
        '|clickwire native LZ4                          |     80 MB |',
        '+----------------------------------------------+-----------+',
        '|clickhouse-client LZ4                         |     59 MB |',
        '+----------------------------------------------+-----------+',
        '',
      ].join('\n'),
    )
  })

  it('reproduces the reference header for its five cutoffs', () => {
    const labels = ['50k', '131k', '217k', '450k', '697k']
    const section = {
      ...parsedSection,
      points: labels.map((label) => ({ id: label, label, argument: '', expectedRows: 0 })),
      variants: [],
    }
    const lines = renderRstTable([section]).split('\n')
    // The first four lines of the reference's results table, character for character.
    expect(lines.slice(0, 5)).toEqual([
      '+----------------------------------+-----------+-----------+-----------+-----------+-----------+',
      '|                                  |                            Rows                           |',
      '|                                  +-----------+-----------+-----------+-----------+-----------+',
      '|                                  |    50k    |    131k   |    217k   |    450k   |    697k   |',
      '+==================================+===========+===========+===========+===========+===========+',
    ])
    expect(lines[5]).toBe(
      '|**Parsed rows: timing**                                                                       |',
    )
  })
})

describe('renderRstReport', () => {
  it('puts the machine, server and dataset in the header and one table per axis', () => {
    const text = renderRstReport(fixtureReport)
    expect(text.split('\n').slice(0, 10)).toEqual([
      'Results',
      '=======',
      '',
      '* Machine: AMD EPYC, 2 cores, 24.0 GiB RAM, Debian GNU/Linux 12 (bookworm), Linux 6.1',
      '* Runtimes: Node.js v20.19.0, Python 3.11.7',
      '* ClickHouse server: 18.16.1 (legacy generation; a throwaway local server started by the bench)',
      "* Dataset: perftest.ontime, 697813 rows (generated), loaded in 10.5 s through clickwire's native insert (116,302 rows/s inserting); rows per cutoff: < 2017-01-04: 45202, < 2017-02-18: 697813",
      '* Method: quick run, 3 repetitions interleaved round-robin, median reported; each run is its own process; 123 s in all',
      '* Clients: clickwire-native commit abc1234; clickhouse-driver 0.2.11; clickhouse-connect (not run: not installed (run setup-peers))',
      '',
    ])
    expect(text).toContain(
      `Ontime\n------\n\n.. rst-class:: table-small-text table-center-header table-right-text-align-results\n\n${renderRstTable([parsedSection])}`,
    )
    expect(text).toContain(
      `ch-bench\n--------\n\n.. rst-class:: table-small-text table-center-header table-right-text-align-results\n\n${renderRstTable([chbenchSection])}`,
    )
  })
})
