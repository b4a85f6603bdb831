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

  it('moves pending bytes so that a fixed-width column still arriving lands aligned', () => {
    const arena = new InputArena(64)
    // 3 header bytes, then the first 5 bytes of a UInt64 column of 100 values.
    arena.push(bytes(1, 2, 3, 10, 11, 12, 13, 14))
    arena.reserve(3 + 800, { at: arena.start + 3, width: 8 })
    expect((arena.bytes.byteOffset + arena.start + 3) % 8).toBe(0)
    expect(Array.from(arena.bytes.subarray(arena.start, arena.end))).toEqual([1, 2, 3, 10, 11, 12, 13, 14])
  })

  it('does not move a column that has mostly arrived (decoding copies it once anyway)', () => {
    const arena = new InputArena(4096)
    arena.push(bytes(0))
    arena.consume(1)
    const pending = new Uint8Array(900).fill(5)
    arena.push(pending)
    const before = arena.bytes
    // 900 of 1000 bytes are here: moving would copy more than it saves.
    arena.reserve(1000, { at: arena.start, width: 8 })
    expect(arena.bytes).toBe(before)
  })

  it('realigns in place past the region a socket may still be reading into', () => {
    const arena = new InputArena(2 << 20)
    const region = arena.writable(16)
    region.set(bytes(1, 2, 3, 10, 11))
    arena.commit(5)
    const buffer = arena.bytes
    // The socket got the next region right after the read; then the decoder asks for alignment.
    const next = arena.writable(16)
    arena.reserve(3 + 800, { at: arena.start + 3, width: 8 })
    expect(arena.bytes).toBe(buffer)
    expect((arena.bytes.byteOffset + arena.start + 3) % 8).toBe(0)
    expect(arena.start).toBeGreaterThanOrEqual(next.byteOffset - buffer.byteOffset + next.length)
    // The read that was in flight lands in the old region: not where the arena ends, so pushed.
    next.set(bytes(12, 13))
    expect(arena.isWritable(next)).toBe(false)
    arena.push(next.subarray(0, 2))
    expect(Array.from(arena.bytes.subarray(arena.start, arena.end))).toEqual([1, 2, 3, 10, 11, 12, 13])
  })
})
