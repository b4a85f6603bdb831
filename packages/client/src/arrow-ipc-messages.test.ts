import { ProtocolError } from '@clickwire/protocol'
import { tableFromArrays, tableFromIPC, tableToIPC } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { arrowIpcParts } from './arrow-ipc-messages.js'

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

async function partsOf(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = []
  for await (const part of arrowIpcParts(chunks)) parts.push(part)
  return parts
}

const table = tableFromArrays({
  n: Int32Array.from({ length: 5000 }, (_, i) => i * 3),
  s: Array.from({ length: 5000 }, (_, i) => `é${i}`),
})
const stream = tableToIPC(table, 'stream')

describe('arrowIpcParts', () => {
  it.each([1, 7, 4096, stream.length])(
    'cuts a stream received in chunks of %i bytes along its messages',
    async (size) => {
      const parts = await partsOf(chunked(stream, size))
      // Schema (prefix, metadata), one batch (prefix, metadata, body); the end marker is not a part.
      expect(parts.map((part) => part.length).reduce((a, b) => a + b, 0)).toBe(stream.length - 8)
      const read = tableFromIPC(parts)
      expect(read.numRows).toBe(5000)
      expect(read.getChild('n')!.get(4999)).toBe(4999 * 3)
      expect(read.getChild('s')!.get(10)).toBe('é10')
    },
  )

  it('takes metadata and bodies that lie in one chunk as views of it, without a copy', async () => {
    const parts = await partsOf(chunked(stream, stream.length))
    for (const part of parts.filter((each) => each.length > 8)) expect(part.buffer).toBe(stream.buffer)
  })

  it('is a ProtocolError when the stream ends inside a message', async () => {
    await expect(partsOf(chunked(stream.subarray(0, stream.length - 100), 512))).rejects.toBeInstanceOf(
      ProtocolError,
    )
  })
})
