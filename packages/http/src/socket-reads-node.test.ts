import { Buffer } from 'node:buffer'
import { once } from 'node:events'
import { connect, createServer, type Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { ReadSlab, slabReads } from './socket-reads-node.js'

describe('ReadSlab', () => {
  it('hands out regions front to back and gives the unused tail of the last one to the next', () => {
    const slab = new ReadSlab(1024, 256, 64)
    const first = slab.region()
    expect(first.length).toBe(256)
    first.fill(1, 0, 100)
    slab.filled(first, 100)
    const second = slab.region()
    expect(second.buffer).toBe(first.buffer)
    expect(second.byteOffset).toBe(first.byteOffset + 100)
    expect(second.length).toBe(256)
    // The bytes read before are never handed out again.
    second.fill(2)
    expect([...first.subarray(0, 100)].every((byte) => byte === 1)).toBe(true)
  })

  it('keeps the tail of a region when another region was handed out after it', () => {
    const slab = new ReadSlab(1024, 256, 64)
    const a = slab.region()
    const b = slab.region()
    slab.filled(a, 10)
    const c = slab.region()
    expect(c.byteOffset).toBe(b.byteOffset + 256)
    slab.filled(b, 256)
    slab.filled(c, 0)
    // c was the last one: its whole length comes back.
    expect(slab.region().byteOffset).toBe(c.byteOffset)
  })

  it('starts a fresh slab when less than the minimum read is left', () => {
    const slab = new ReadSlab(300, 256, 64)
    const first = slab.region()
    slab.filled(first, 250)
    const second = slab.region()
    expect(second.buffer).not.toBe(first.buffer)
    expect(second.byteOffset).toBe(0)
    expect(second.length).toBe(256)
  })
})

describe('slabReads', () => {
  it('delivers every byte through the readable side, pausing and resuming with the reader', async () => {
    const total = 16 << 20
    const sent = new Uint8Array(total)
    for (let i = 0; i < total; i++) sent[i] = (i * 31) & 0xff
    const server = createServer((socket) => socket.end(sent))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as { port: number }
    try {
      const socket: Socket = connect({
        host: '127.0.0.1',
        port,
        ...slabReads(new ReadSlab(256 << 10, 64 << 10, 16 << 10)),
      })
      const chunks: Uint8Array[] = []
      // Read nothing for a while: the readable side fills past its high-water mark and the
      // socket stops reading, as it does while the HTTP parser is paused. Waited for by time
      // (up to 10 s), not for a fixed 100 ms that a loaded machine may not give the socket.
      for (const until = Date.now() + 10_000; Date.now() < until; ) {
        if (socket.readableLength >= socket.readableHighWaterMark) break
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      // A little longer, so that a socket that kept reading past the mark would show it.
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(socket.readableLength).toBeGreaterThanOrEqual(socket.readableHighWaterMark)
      expect(socket.readableLength).toBeLessThanOrEqual(socket.readableHighWaterMark + (64 << 10))
      socket.on('readable', () => {
        for (let chunk = socket.read(); chunk !== null; chunk = socket.read()) chunks.push(chunk)
      })
      await once(socket, 'end')
      const received = Buffer.concat(chunks)
      expect(received.length).toBe(total)
      expect(received.equals(sent)).toBe(true)
    } finally {
      server.close()
    }
  })
})
