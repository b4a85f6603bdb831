import { describe, expect, it } from 'vitest'
import { BufferPool } from './buffer-pool.js'

describe('BufferPool', () => {
  it('frees a retired buffer only once the blocks up to its tag are released', () => {
    const pool = new BufferPool()
    pool.tag = 3
    const first = pool.take(1024)
    pool.retire(first)
    pool.tag = 4
    const second = pool.take(1024)
    pool.retire(second)
    pool.release(2)
    expect(pool.freeSize).toBe(0)
    expect(pool.retiredCount).toBe(2)
    pool.release(3)
    expect(pool.freeSize).toBe(1024)
    expect(pool.retiredCount).toBe(1)
    // The freed buffer comes back; the one still tagged 4 does not.
    expect(pool.take(1024)).toBe(first)
    expect(pool.take(1024)).not.toBe(second)
  })

  it('hands out a free buffer only when it fits without wasting more than half', () => {
    const pool = new BufferPool()
    const big = pool.take(4096)
    pool.retire(big)
    pool.release(0)
    expect(pool.take(8192)).not.toBe(big)
    expect(pool.take(1024)).not.toBe(big)
    expect(pool.take(3000)).toBe(big)
  })

  it('takes at least the minimum even when the preferred size is smaller', () => {
    const pool = new BufferPool()
    expect(pool.take(16, 100).length).toBeGreaterThanOrEqual(100)
  })

  it('keeps no more free memory than its limit', () => {
    const pool = new BufferPool(2048)
    for (let i = 0; i < 4; i++) pool.retire(pool.take(1024))
    pool.release(0)
    expect(pool.freeSize).toBe(2048)
    expect(pool.retiredCount).toBe(0)
  })

  it('retires scratch memory with the block that took it', () => {
    const pool = new BufferPool()
    pool.tag = 7
    const scratch = pool.scratch(100)
    expect(scratch.length).toBe(100)
    expect(pool.retiredCount).toBe(1)
    pool.release(6)
    expect(pool.freeSize).toBe(0)
    pool.release(7)
    expect(pool.freeSize).toBe(100)
    // A larger free buffer serves a smaller scratch as a view of the right length.
    const again = pool.scratch(60)
    expect(again.length).toBe(60)
    expect(again.buffer).toBe(scratch.buffer)
  })

  it('forgets retired buffers when a block outlives the promise', () => {
    const pool = new BufferPool()
    pool.retire(pool.take(512))
    pool.forgetRetired()
    pool.release(Number.MAX_SAFE_INTEGER)
    expect(pool.freeSize).toBe(0)
  })
})
