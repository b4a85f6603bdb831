// Blocks whose memory is reused once the consumer asks for the next one (recycleBlocks),
// over HTTP: the same decode pipeline as native (protocol's InputArena and BufferPool), so
// the same promises. Every value still right inside the loop, memory really reused, and
// nothing reused that outlives the promise (blocks of an earlier result).
import { checkKeptWhileRecycling, readScan, scanRows, scanSelect } from '@clickwire/testing'
import { describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')

/** Reads the scan; returns the distinct buffers its numbers lived in. */
async function scan(reuse: boolean, slow: boolean, compression: 'none' | 'frames' = 'none') {
  const http = createHttpTransport({
    url: server.httpUrl,
    compression: compression === 'none' ? 'none' : { response: 'frames' },
  })
  try {
    const stream = await http.query(scanSelect, { settings: { max_block_size: 65_536 } })
    const { rows, buffers } = await readScan(stream, reuse, slow)
    expect(rows).toBe(BigInt(scanRows))
    return buffers
  } finally {
    await http.close()
  }
}

describe.each(['none', 'frames'] as const)('response compression %s', (compression) => {
  it.each([false, true])('keeps every value right with reused memory (slow consumer: %s)', async (slow) => {
    await scan(true, slow, compression)
  })
})

it('views far fewer buffers when memory is reused than when it is not', async () => {
  // 46 blocks of ~1.2 MB: fresh memory spreads them over a dozen 4 MiB buffers and copies;
  // reused memory cycles through a few.
  const fresh = await scan(false, false)
  const reused = await scan(true, false)
  expect(fresh).toBeGreaterThanOrEqual(15)
  expect(reused).toBeLessThanOrEqual(8)
})

it('never reuses memory of an earlier result the caller still holds', async () => {
  const http = createHttpTransport({ url: server.httpUrl, maxConnections: 1 })
  try {
    // The same connection (the pool holds one) streams the second result with reused memory.
    expect(await checkKeptWhileRecycling(() => http.query(scanSelect))).toBe(BigInt(scanRows))
  } finally {
    await http.close()
  }
})
