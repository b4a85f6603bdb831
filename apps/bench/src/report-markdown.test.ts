import { describe, expect, it } from 'vitest'
import { chbenchSection, fixtureReport, parsedSection } from '../test/support/report-fixture.js'
import { renderMarkdownRatios, renderMarkdownReport, renderMarkdownSection } from './report-markdown.js'

describe('renderMarkdownSection', () => {
  it('renders timing and memory tables with clickwire in bold', () => {
    expect(renderMarkdownSection(parsedSection)).toBe(
      [
        '### Parsed rows: timing',
        '',
        '|  | 45k | 697k |',
        '|:--|--:|--:|',
        '| **clickwire native rows() (4)** | 0.12 s | 1.46 s |',
        '| clickhouse-driver Native (4) | 0.18 s | 4.67 s |',
        '| clickhouse-connect (14) | n/a | n/a |',
        '',
        '### Parsed rows: memory',
        '',
        '|  | 45k | 697k |',
        '|:--|--:|--:|',
        '| **clickwire native rows() (4)** | 95 MB | 1.23 GB |',
        '| clickhouse-driver Native (4) | 167 MB | 1.70 GB |',
        '| clickhouse-connect (14) | n/a | n/a |',
        '',
      ].join('\n'),
    )
  })
})

describe('renderMarkdownRatios', () => {
  it("divides each peer's time by clickwire's, native / HTTP", () => {
    expect(renderMarkdownRatios({ sections: [parsedSection, chbenchSection] })).toBe(
      [
        '### Parsed rows',
        '',
        '| peer | 45k | 697k |',
        '|:--|--:|--:|',
        '| clickhouse-driver Native (4) | 1.50× / n/a | 3.20× / n/a |',
        '| clickhouse-connect (14) | n/a / n/a | n/a / n/a |',
        '',
        '### ch-bench: SELECT number FROM system.numbers_mt',
        '',
        '| peer | 500M |',
        '|:--|--:|',
        '| clickhouse-client LZ4 | 0.95× / n/a |',
        '',
      ].join('\n'),
    )
  })
})

describe('renderMarkdownReport', () => {
  it('has the header, every section, the ratios and the performance targets', () => {
    const text = renderMarkdownReport(fixtureReport)
    // A heading a reader understands without the project's issue tracker.
    expect(text).toContain(
      '## Performance targets\n\nEach target is a limit clickwire should meet against a peer, checked at the largest point measured.\n\n| goal | what |',
    )
    expect(text).not.toMatch(/issue \d+/)
    expect(
      text.startsWith('# clickwire benchmark results\n\n- Machine: AMD EPYC, 2 cores, 24.0 GiB RAM'),
    ).toBe(true)
    expect(text).toContain(renderMarkdownSection(parsedSection))
    expect(text).toContain(renderMarkdownSection(chbenchSection))
    expect(text).toContain(
      '| P1 | ch-bench native LZ4 vs clickhouse-client LZ4 | 500M | 1.05× | at most 1.10× | met |',
    )
    expect(text).toContain('| P1 | ch-bench native LZ4 peak RSS | 500M | 80 MB | at most 100 MB | met |')
    expect(text).toContain(
      '| P3 | clickhouse-driver (4) over rows() (4) | 697k | 3.20× | at least 3.00× | met |',
    )
    expect(text).toContain(
      '| P6 | native insert vs clickhouse-client Native file |  | n/a | at most 1.30× | not measured |',
    )
  })
})
