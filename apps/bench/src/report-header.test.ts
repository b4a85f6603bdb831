import { describe, expect, it } from 'vitest'
import { fixtureReport } from '../test/support/report-fixture.js'
import { describeMachine } from './report-header.js'

describe('describeMachine', () => {
  it('says how loaded the machine was, and when that makes only ratios meaningful', () => {
    expect(describeMachine(fixtureReport).some((line) => line.startsWith('Load:'))).toBe(false)
    const quiet = describeMachine({ ...fixtureReport, load: { start: 0.4, end: 1.2 } })
    expect(quiet.at(-1)).toBe('Load: 1-minute load average 0.4 at the start, 1.2 at the end, on 2 cores')
    const busy = describeMachine({ ...fixtureReport, load: { start: 9.2, end: 1.5 } })
    expect(busy.at(-1)).toMatch(/9\.2 at the start, 1\.5 at the end, on 2 cores: other processes competed/)
  })

  it('names the line and the revision clickwire spoke when the report has them', () => {
    const lines = describeMachine({
      ...fixtureReport,
      server: {
        ...fixtureReport.server,
        version: '26.9.2.1',
        generation: 'modern',
        line: '26.9',
        revision: 54492,
      },
    })
    expect(lines).toContain(
      'ClickHouse server: 26.9.2.1 (modern generation, line 26.9; protocol revision 54492 with clickwire; a throwaway local server started by the bench)',
    )
  })
})
