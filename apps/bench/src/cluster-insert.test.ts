import { describe, expect, it } from 'vitest'
import { renderFigures, runOrder, summarize } from './cluster-insert.js'

describe('cluster-insert', () => {
  it('interleaves the paths, alternating which goes first', () => {
    expect(runOrder([1, 2], 2)).toEqual([
      { shards: 1, path: 'distributed' },
      { shards: 1, path: 'direct' },
      { shards: 2, path: 'distributed' },
      { shards: 2, path: 'direct' },
      { shards: 1, path: 'direct' },
      { shards: 1, path: 'distributed' },
      { shards: 2, path: 'direct' },
      { shards: 2, path: 'distributed' },
    ])
  })

  it('takes the median repetition of each pair and prints the ratio', () => {
    const samples = [
      { shards: 1, path: 'distributed' as const, seconds: 4 },
      { shards: 1, path: 'distributed' as const, seconds: 2 },
      { shards: 1, path: 'distributed' as const, seconds: 3 },
      { shards: 1, path: 'direct' as const, seconds: 1 },
      { shards: 1, path: 'direct' as const, seconds: 2 },
    ]
    const figures = summarize(samples, 600_000_000)
    expect(figures).toEqual([
      {
        shards: 1,
        path: 'distributed',
        rowsPerSecond: 200_000_000,
        bestRowsPerSecond: 300_000_000,
        medianSeconds: 3,
        repetitions: 3,
      },
      {
        shards: 1,
        path: 'direct',
        rowsPerSecond: 400_000_000,
        bestRowsPerSecond: 600_000_000,
        medianSeconds: 1.5,
        repetitions: 2,
      },
    ])
    expect(renderFigures(figures, 'test').split('\n')[2]).toBe(
      '1 shard                 200.00 M (300.00 M) 400.00 M (600.00 M)            2.00 (2.00)',
    )
  })
})
