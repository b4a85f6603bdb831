import { describe, expect, it } from 'vitest'
import { BufferPool } from './buffer-pool.js'
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

  it('bounds a read region by its maximum, so a move after it costs at most that read', () => {
    const arena = new InputArena(1 << 20)
    expect(arena.writable(1024, 4096).length).toBe(4096)
    arena.commit(10)
    // Without a maximum a region may run 1 MiB past the pending bytes, as far as the buffer goes.
    expect(arena.writable(1024).length).toBe(arena.bytes.length - arena.end)
    // A minimum above the maximum wins: the socket always gets at least that much.
    expect(arena.writable(8192, 4096).length).toBe(8192)
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

describe('InputArena with a BufferPool', () => {
  /** Fills the arena's socket region with `n` bytes of `value` and commits them. */
  const receive = (arena: InputArena, n: number, value: number) => {
    const region = arena.writable(n)
    region.fill(value, 0, n)
    arena.commit(n)
  }

  it('never retires the buffer it had before the pool was set', () => {
    const arena = new InputArena(64)
    arena.push(bytes(1, 2, 3))
    const before = arena.bytes
    const pool = new BufferPool()
    arena.recycleWith(pool)
    arena.reserve(1000)
    expect(arena.bytes.buffer).not.toBe(before.buffer)
    expect(pool.retiredCount).toBe(0)
  })

  it('retires a pool buffer only after the socket asked for its next region', () => {
    const pool = new BufferPool()
    const arena = new InputArena(64)
    arena.recycleWith(pool)
    receive(arena, 16, 5)
    const first = arena.bytes
    // The socket now holds a region of `first`; the arena moves on.
    const held = arena.writable(16)
    arena.reserve(1000)
    expect(arena.bytes.buffer).not.toBe(first.buffer)
    expect(pool.retiredCount).toBe(0)
    // The socket's read lands in the old region and is pushed over; then it asks again.
    held.fill(6, 0, 4)
    expect(arena.isWritable(held)).toBe(false)
    arena.push(held.subarray(0, 4))
    arena.writable(16)
    expect(pool.retiredCount).toBe(1)
    expect(Array.from(arena.bytes.subarray(arena.end - 4, arena.end))).toEqual([6, 6, 6, 6])
  })

  it('reuses released memory for later buffers, never memory still tagged in use', () => {
    const pool = new BufferPool()
    const arena = new InputArena(1024)
    arena.recycleWith(pool)
    /** Consumes everything, then fills the current buffer to its end. */
    const fill = () => {
      arena.consume(arena.end)
      arena.push(new Uint8Array(arena.bytes.length - arena.end))
      arena.consume(arena.end)
    }
    pool.tag = 1
    arena.push(bytes(1))
    const first = arena.bytes.buffer
    fill()
    // The next bytes need a new buffer: the first is retired under block 1.
    arena.push(bytes(2))
    const second = arena.bytes.buffer
    expect(second).not.toBe(first)
    pool.tag = 2
    fill()
    arena.push(bytes(3))
    // Block 1 was not released: its buffer must not come back.
    expect(arena.bytes.buffer).not.toBe(first)
    pool.release(1)
    fill()
    arena.push(bytes(4))
    expect(arena.bytes.buffer).toBe(first)
    expect(arena.bytes[arena.start]).toBe(4)
  })

  it('gives room after the pending bytes for a decoder that writes there itself', () => {
    const arena = new InputArena(16)
    arena.push(bytes(1, 2, 3))
    arena.consume(arena.start + 1)
    const room = arena.room(40)
    expect(room.bytes).toBe(arena.bytes)
    expect(room.offset).toBe(arena.end)
    expect(room.bytes.length - room.offset).toBeGreaterThanOrEqual(40)
    room.bytes.set([7, 8], room.offset)
    arena.commit(2)
    expect(Array.from(arena.bytes.subarray(arena.start, arena.end))).toEqual([2, 3, 7, 8])
  })
})
