// Rewrites the mapping table in README.md from the built package (`pnpm readme`), so the
// table is the code's own output. src/mapping-table.test.ts fails while they differ.
import { readFileSync, writeFileSync } from 'node:fs'
import { mappingTableMarkdown } from '../dist/mapping-table.js'

const path = new URL('../README.md', import.meta.url)
const start = '<!-- mapping-table:start -->\n'
const end = '<!-- mapping-table:end -->'
const readme = readFileSync(path, 'utf8')
const from = readme.indexOf(start)
const to = readme.indexOf(end)
if (from < 0 || to < from) throw new Error('README.md lacks the mapping-table markers')
writeFileSync(path, readme.slice(0, from + start.length) + mappingTableMarkdown() + readme.slice(to))
