import { describe, expect, it } from 'vitest'
import { HostSelector } from './host-selector.js'

const a = { host: 'a', port: 9000 }
const b = { host: 'b', port: 9000 }
const c = { host: 'c', port: 9000 }

describe('HostSelector', () => {
  it('keeps the order for in-order and rotates for round-robin', () => {
    const ordered = new HostSelector([a, b, c], 'in-order', 1000)
    expect(ordered.candidates()).toEqual([a, b, c])
    expect(ordered.candidates()).toEqual([a, b, c])
    const rotating = new HostSelector([a, b, c], 'round-robin', 1000)
    expect(rotating.candidates()).toEqual([a, b, c])
    expect(rotating.candidates()).toEqual([b, c, a])
    expect(rotating.candidates()).toEqual([c, a, b])
  })

  it('shuffles for random but always offers every host', () => {
    const random = new HostSelector([a, b, c], 'random', 1000)
    const firsts = new Set<string>()
    for (let i = 0; i < 200; i++) {
      const order = random.candidates()
      expect([...order].sort((x, y) => x.host.localeCompare(y.host))).toEqual([a, b, c])
      firsts.add(order[0]!.host)
    }
    expect(firsts.size).toBe(3)
  })

  it('sets a failed host aside for the cooldown, then brings it back', () => {
    let now = 0
    const selector = new HostSelector([a, b, c], 'in-order', 1000, () => now)
    selector.failed(a)
    expect(selector.candidates()).toEqual([b, c, a])
    expect(selector.isCoolingDown(a)).toBe(true)
    now = 1001
    expect(selector.candidates()).toEqual([a, b, c])
    selector.failed(b)
    selector.succeeded(b)
    expect(selector.candidates()).toEqual([a, b, c])
  })
})
