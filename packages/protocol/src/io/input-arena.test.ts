import { describe, expect, it } from 'vitest'
import { InputArena } from './input-arena.js'

const bytes = (...values: number[]) => new Uint8Array(values)

describe('InputArena', () => {
  it('keeps received bytes contiguous and never overwrites consumed ones', () => {
    const arena = new InputArena(8)
    arena.push(bytes(1, 2, 3))
    const first = arena.bytes
    arena.consume(arena.start + 2)
    arena.push(bytes(4, 5, 6, 7, 8, 9))
    expect(Array.from(arena.bytes.subarray(arena.start, arena.end))).toEqual([3, 4, 5, 6, 7, 8, 9])
    // The first buffer was too small for the tail + chunk: the tail moved, the old bytes stay.
    expect(Array.from(first.subarray(0, 3))).toEqual([1, 2, 3])
  })

  it('adopts a large chunk when nothing is pending, without copying', () => {
    const arena = new InputArena(16)
    const chunk = new Uint8Array(100_000).fill(7)
    arena.push(chunk)
    expect(arena.bytes).toBe(chunk)
    arena.consume(99_990)
    arena.push(bytes(1, 2))
    expect(arena.bytes).not.toBe(chunk)
    expect(arena.length).toBe(12)
    expect(Array.from(arena.bytes.subarray(arena.start, arena.end)).slice(-3)).toEqual([7, 1, 2])
    expect(chunk[0]).toBe(7)
  })

  it('gives a socket room to read into, and reserves room for a large packet', () => {
    const arena = new InputArena(32)
    const region = arena.writable(16)
    region.set(bytes(9, 8, 7))
    arena.commit(3)
    expect(Array.from(arena.bytes.subarray(arena.start, arena.end))).toEqual([9, 8, 7])
    arena.reserve(1000)
    expect(arena.bytes.length - arena.start).toBeGreaterThanOrEqual(1000)
    expect(Array.from(arena.bytes.subarray(arena.start, arena.end))).toEqual([9, 8, 7])
  })

  it('drops an adopted chunk once it is consumed', () => {
    const arena = new InputArena(16)
    arena.push(new Uint8Array(70_000))
    arena.consume(70_000)
    expect(arena.bytes.length).toBe(0)
    expect(arena.length).toBe(0)
  })
})
