import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { reportMarker } from './child-clock.js'
import { runMeasured } from './job-runner.js'

const folder = await mkdtemp(join(tmpdir(), 'clickwire-runner-'))
afterAll(() => rm(folder, { recursive: true, force: true }))

/** A child that reports itself like the bench's children, holding `megabytes` of memory. */
async function reportingChild(megabytes: number): Promise<string> {
  const path = join(folder, `child-${megabytes}.mjs`)
  await writeFile(
    path,
    `const started = performance.now()
const held = Buffer.alloc(${megabytes} * 1e6, 1)
process.on('exit', () => process.stdout.write('${reportMarker}' + JSON.stringify({
  elapsedMs: performance.now() - started, maxRssBytes: process.resourceUsage().maxRSS * 1024, rows: held.length > 0 ? 42 : 0 }) + '\\n'))
`,
  )
  return path
}

describe('runMeasured', () => {
  it("takes a child's own report, and its peak RSS is not inflated by this process's size", async () => {
    // Linux carries the peak RSS across fork + exec: make this process large and check the
    // child's figure stays its own.
    const ballast = Buffer.alloc(400e6, 1)
    const small = await runMeasured(
      { file: process.execPath, args: [await reportingChild(1)], env: process.env, measure: 'self' },
      { timeoutMs: 30_000 },
    )
    const large = await runMeasured(
      { file: process.execPath, args: [await reportingChild(200)], env: process.env, measure: 'self' },
      { timeoutMs: 30_000 },
    )
    expect(ballast.length).toBe(400e6)
    expect(small.error).toBeUndefined()
    expect(small.rows).toBe(42)
    expect(small.maxRssBytes).toBeLessThan(150e6)
    expect(large.maxRssBytes! - small.maxRssBytes!).toBeGreaterThan(150e6)
  })

  it.runIf(existsSync('/usr/bin/time'))(
    'times external programs from outside and reads their peak RSS from GNU time',
    async () => {
      const result = await runMeasured(
        { file: '/bin/sh', args: ['-c', 'sleep 0.2'], env: process.env, measure: 'external' },
        { timeoutMs: 30_000, gnuTime: '/usr/bin/time' },
      )
      expect(result.error).toBeUndefined()
      expect(result.elapsedMs).toBeGreaterThanOrEqual(190)
      expect(result.maxRssBytes).toBeGreaterThan(0)
      expect(result.maxRssBytes).toBeLessThan(50e6)
    },
  )

  it('reports failures, missing reports and timeouts as errors', async () => {
    const failing = await runMeasured(
      { file: '/bin/sh', args: ['-c', 'echo broken >&2; exit 3'], env: process.env, measure: 'self' },
      { timeoutMs: 30_000 },
    )
    expect(failing.error).toBe('exit 3: broken')
    const raw = await runMeasured(
      {
        file: '/bin/sh',
        args: ['-c', "printf 'Unknown setting \\001\\033,\\n' >&2; exit 1"],
        env: process.env,
        measure: 'self',
      },
      { timeoutMs: 30_000 },
    )
    expect(raw.error).toBe('exit 1: Unknown setting ??,')
    const silent = await runMeasured(
      { file: '/bin/sh', args: ['-c', 'true'], env: process.env, measure: 'self' },
      { timeoutMs: 30_000 },
    )
    expect(silent.error).toBe('no report: ')
    const started = performance.now()
    const slow = await runMeasured(
      { file: '/bin/sh', args: ['-c', 'sleep 30'], env: process.env, measure: 'self' },
      { timeoutMs: 300 },
    )
    expect(slow.error).toBe('timeout after 0 s')
    expect(performance.now() - started).toBeLessThan(10_000)
  })
})
