// The test matrix (scripts/test-all.sh) runs these suites on several Node lines through
// scripts/node-line.sh, which names the line in CLICKWIRE_NODE: a run that names one must
// really be on it, or the matrix would report lines it never ran.
import { describe, expect, it } from 'vitest'

describe('the Node line of this run', () => {
  const named = process.env.CLICKWIRE_NODE
  it.runIf(named !== undefined && typeof process.versions.node === 'string')(
    `is the line CLICKWIRE_NODE names (${named})`,
    () => {
      expect(process.versions.node.split('.')[0]).toBe(named)
    },
  )

  it('meets the floor in engines (20.19)', () => {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true)
  })
})
