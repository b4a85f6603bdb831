import { readFileSync } from 'node:fs'
import { typeFamilies } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { mappingTableMarkdown } from './mapping-table.js'

describe('mapping table', () => {
  it('has a row for every family clickwire reads', () => {
    const table = mappingTableMarkdown()
    for (const family of typeFamilies)
      expect([family, table.includes(`| \`${family}`)]).toEqual([family, true])
  })

  it('shows what each option changes', () => {
    const table = mappingTableMarkdown()
    expect(table).toContain(
      '| `Map(String, UInt64)` | `Map<string, bigint>` | int64: number: `Map<string, number>`<br>int64: string: `Map<string, string>` |',
    )
    expect(table).toContain('| `Nullable(String)` | `string \\| null` | — |')
    expect(table).toContain('| `AggregateFunction(quantiles(0.5), Float64)` | `unknown` |')
  })

  it('is the table in README.md (regenerate with `pnpm readme`)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    const start = '<!-- mapping-table:start -->\n'
    const section = readme.slice(
      readme.indexOf(start) + start.length,
      readme.indexOf('<!-- mapping-table:end -->'),
    )
    expect(cells(section)).toEqual(cells(mappingTableMarkdown()))
  })
})

/**
 * A Markdown table's cells, so padding added by a formatter (biome aligns the README's
 * columns) does not count as a difference: cells split at unescaped pipes and trimmed,
 * the separator row as dashes.
 */
function cells(table: string): string[][] {
  return table
    .trim()
    .split('\n')
    .map((row) =>
      row
        .trim()
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/^-+$/, '---')),
    )
}
