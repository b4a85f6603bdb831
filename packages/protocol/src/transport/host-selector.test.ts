import { describe, expect, it } from 'vitest'
import { UsageError } from '../errors/index.js'
import { HostSelector, hostStrategyOfLoadBalancing, resolveHostStrategy } from './host-selector.js'

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

  it('keeps the first host first for first-or-random, the others in the order the dice give', () => {
    const d = { host: 'd', port: 9000 }
    // Fisher-Yates over [b, c, d] only: i=3 swaps with 1+floor(0*3)=1 (b<->d), i=2 with 1+floor(0.99*2)=2 (none).
    const selector = new HostSelector([a, b, c, d], 'first-or-random', 1000, {
      now: () => 0,
      random: dice(0, 0.99),
    })
    expect(selector.candidates()).toEqual([a, d, c, b])
    expect(selector.candidates()).toEqual([a, d, c, b])
  })

  it('goes to a random healthy host for first-or-random while the first cools down', () => {
    let now = 0
    const selector = new HostSelector([a, b, c], 'first-or-random', 1000, {
      now: () => now,
      random: dice(0.5, 0.99),
    })
    selector.failed(a)
    // [a, b, c]: i=2 swaps with 1+floor(0.5*2)=2 (none), then a moves behind the healthy ones.
    expect(selector.candidates()).toEqual([b, c, a])
    // i=2 with 1+floor(0.99*2)=2 (none) again; dice 0.5 next: same.
    expect(selector.candidates()).toEqual([b, c, a])
    const other = new HostSelector([a, b, c], 'first-or-random', 1000, { now: () => now, random: dice(0) })
    other.failed(a)
    // i=2 swaps with 1+floor(0*2)=1: c before b.
    expect(other.candidates()).toEqual([c, b, a])
    now = 1000
    expect(other.candidates()).toEqual([a, c, b])
  })

  it('takes ClickHouse load_balancing names as aliases of the hyphenated strategies', () => {
    expect(resolveHostStrategy('in_order')).toBe('in-order')
    expect(resolveHostStrategy('round_robin')).toBe('round-robin')
    expect(resolveHostStrategy('random')).toBe('random')
    expect(resolveHostStrategy('first_or_random')).toBe('first-or-random')
    expect(resolveHostStrategy('first-or-random')).toBe('first-or-random')
    expect(new HostSelector([a, b, c], 'round_robin', 1000).strategy).toBe('round-robin')
    const rotating = new HostSelector([a, b, c], 'round_robin', 1000)
    expect([rotating.candidates(), rotating.candidates()]).toEqual([
      [a, b, c],
      [b, c, a],
    ])
    // As a setting's value, only ClickHouse's own spelling maps; the rest is left to the server.
    expect(hostStrategyOfLoadBalancing('first_or_random')).toBe('first-or-random')
    expect(hostStrategyOfLoadBalancing('in-order')).toBeUndefined()
    expect(hostStrategyOfLoadBalancing('nearest_hostname')).toBeUndefined()
    expect(hostStrategyOfLoadBalancing('toString')).toBeUndefined()
  })

  it('refuses the server-only policies and unknown names with a UsageError', () => {
    expect(() => resolveHostStrategy('nearest_hostname')).toThrow(UsageError)
    expect(() => resolveHostStrategy('nearest_hostname')).toThrow(
      /^hostStrategy nearest_hostname ranks replicas by host name distance from the server: only a server applies it/,
    )
    expect(() => resolveHostStrategy('hostname_levenshtein_distance', 'load_balancing')).toThrow(
      /^load_balancing hostname_levenshtein_distance ranks/,
    )
    expect(() => resolveHostStrategy('inorder')).toThrow(
      'hostStrategy must be in-order, round-robin, random or first-or-random (or in_order, round_robin, first_or_random), got inorder',
    )
    expect(() => new HostSelector([a], 'fastest' as never, 1000)).toThrow(UsageError)
  })

  it('tells when a host is set aside and when it is back, once per change', () => {
    let now = 0
    const events: string[] = []
    const selector = new HostSelector(
      [a, b],
      'in-order',
      1000,
      { now: () => now },
      {
        onSetAside: (host, error, until) => events.push(`aside ${host.host} ${String(error)} ${until}`),
        onRestored: (host) => events.push(`back ${host.host}`),
      },
    )
    selector.succeeded(a)
    selector.failed(a, 'refused')
    now = 10
    selector.failed(a, 'refused again')
    now = 2000
    selector.failed(a, 'after the cool-down')
    selector.succeeded(a)
    selector.succeeded(a)
    expect(events).toEqual(['aside a refused 1000', 'aside a after the cool-down 3000', 'back a'])
  })

  it('replaces the host list, keeping the cool-down of hosts still listed', () => {
    const now = 0
    const selector = new HostSelector([a, b, c], 'in-order', 1000, { now: () => now })
    selector.failed(b)
    selector.failed(c)
    const sameAddress = (x: typeof a, y: typeof a) => x.host === y.host && x.port === y.port
    const d = { host: 'd', port: 9000 }
    selector.setHosts([{ host: 'b', port: 9000 }, d, { host: 'a', port: 9000 }], sameAddress)
    const order = selector.candidates()
    expect(order).toEqual([d, a, b])
    // The old values are kept for hosts still listed.
    expect(order[1]).toBe(a)
    expect(order[2]).toBe(b)
    expect(selector.hosts).toEqual([b, d, a])
    expect(selector.isCoolingDown(c)).toBe(false)
  })
})
