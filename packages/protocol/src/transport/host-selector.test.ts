import { describe, expect, it } from 'vitest'
import { HostSelector } from './host-selector.js'

const a = { host: 'a', port: 9000 }
const b = { host: 'b', port: 9000 }
const c = { host: 'c', port: 9000 }

/** A fixed sequence of "random" numbers, repeated. */
function dice(...values: number[]): () => number {
  let i = 0
  return () => values[i++ % values.length]!
}

describe('HostSelector', () => {
  it('keeps the order for in-order', () => {
    const ordered = new HostSelector([a, b, c], 'in-order', 1000)
    expect(ordered.candidates()).toEqual([a, b, c])
    expect(ordered.candidates()).toEqual([a, b, c])
  })

  it('rotates the first host for round-robin', () => {
    const rotating = new HostSelector([a, b, c], 'round-robin', 1000)
    expect(rotating.candidates()).toEqual([a, b, c])
    expect(rotating.candidates()).toEqual([b, c, a])
    expect(rotating.candidates()).toEqual([c, a, b])
    expect(rotating.candidates()).toEqual([a, b, c])
  })

  it('shuffles for random with the dice given', () => {
    // Fisher-Yates from the end: i=2 swaps with floor(0.9*3)=2 (none), i=1 with floor(0*2)=0.
    expect(new HostSelector([a, b, c], 'random', 1000, { random: dice(0.9, 0) }).candidates()).toEqual([
      b,
      a,
      c,
    ])
    // i=2 with 0, i=1 with floor(0.5*2)=1: c first.
    expect(new HostSelector([a, b, c], 'random', 1000, { random: dice(0, 0.5) }).candidates()).toEqual([
      c,
      b,
      a,
    ])
  })

  it('offers every host for random, each of them first some time', () => {
    const random = new HostSelector([a, b, c], 'random', 1000)
    const firsts = new Set<string>()
    for (let i = 0; i < 200; i++) {
      const order = random.candidates()
      expect([...order].sort((x, y) => x.host.localeCompare(y.host))).toEqual([a, b, c])
      firsts.add(order[0]!.host)
    }
    expect(firsts).toEqual(new Set(['a', 'b', 'c']))
  })

  it('sets a failed host aside for the cool-down, then brings it back', () => {
    let now = 0
    const selector = new HostSelector([a, b, c], 'in-order', 1000, { now: () => now })
    selector.failed(a)
    expect(selector.candidates()).toEqual([b, c, a])
    expect(selector.isCoolingDown(a)).toBe(true)
    now = 999
    expect(selector.candidates()).toEqual([b, c, a])
    now = 1000
    expect(selector.isCoolingDown(a)).toBe(false)
    expect(selector.candidates()).toEqual([a, b, c])
    selector.failed(b)
    selector.succeeded(b)
    expect(selector.candidates()).toEqual([a, b, c])
  })

  it('keeps rotating over the healthy hosts for round-robin', () => {
    let now = 0
    const selector = new HostSelector([a, b, c], 'round-robin', 1000, { now: () => now })
    selector.failed(b)
    expect(selector.candidates()).toEqual([a, c, b])
    expect(selector.candidates()).toEqual([c, a, b])
    expect(selector.candidates()).toEqual([c, a, b])
    now = 1000
    expect(selector.candidates()).toEqual([a, b, c])
  })

  it('offers every host when all are cooling down, the first to recover leading', () => {
    let now = 0
    const selector = new HostSelector([a, b, c], 'in-order', 1000, { now: () => now })
    selector.failed(b)
    now = 10
    selector.failed(c)
    now = 20
    selector.failed(a)
    expect(selector.candidates()).toEqual([b, c, a])
    now = 1005
    expect(selector.candidates()).toEqual([b, c, a])
    now = 1015
    expect(selector.candidates()).toEqual([b, c, a])
    expect(selector.isCoolingDown(b)).toBe(false)
    expect(selector.isCoolingDown(c)).toBe(false)
    expect(selector.isCoolingDown(a)).toBe(true)
  })

  it('works on any value, by identity', () => {
    const first = { name: 'x' }
    const second = { name: 'x' }
    const selector = new HostSelector([first, second], 'in-order', 1000, { now: () => 0 })
    selector.failed(first)
    expect(selector.candidates()).toEqual([second, first])
    expect(selector.candidates()[0]).toBe(second)
  })
})
