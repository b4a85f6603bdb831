// Where the lz4-napi addon cannot load (Deno without --allow-ffi), LZ4 is WebAssembly both
// ways and ZSTD is unaffected.
import { describe, expect, it, vi } from 'vitest'

vi.mock('lz4-napi', () => {
  throw new Error(
    'NotCapable: Requires ffi access to "lz4-napi.linux-x64-gnu.node", run again with the --allow-ffi flag',
  )
})

const { nodeCompression, nodeLz4Codec } = await import('./compression-node.js')
const { compressFrames } = await import('./frame-writer.js')
const { decompressFrames } = await import('./frame-reader.js')

const text = new TextEncoder().encode('clickwire '.repeat(5000))

describe('without the lz4-napi addon', () => {
  it('compresses and decompresses LZ4 through WebAssembly', async () => {
    const lz4 = await nodeLz4Codec()
    const payload = lz4.compress(text)
    expect(payload.length).toBeLessThan(text.length / 10)
    const codecs = await nodeCompression()
    const frames = compressFrames(text, 'lz4', codecs)
    expect(decompressFrames(frames, codecs)).toEqual(text)
  })

  it('leaves ZSTD working', async () => {
    const codecs = await nodeCompression()
    const frames = compressFrames(text, 'zstd', codecs)
    expect(decompressFrames(frames, codecs)).toEqual(text)
  })
})
