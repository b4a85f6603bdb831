import type { CompressionCodec, CompressionCodecs } from '@clickwire/protocol'
import { loadZstd, zstdCodec } from '@clickwire/protocol/frames'
import { loadLz4Codec as loadLz4 } from '#lz4-codec'

/**
 * The codecs of one transport: LZ4 at once, ZSTD (WebAssembly, about 90 ms to compile, a
 * cost every process would pay on its first query) only when it is the method to send, or
 * when a ZSTD frame arrives.
 */
export interface TransportCodecs extends CompressionCodecs {
  readonly lz4: CompressionCodec
  zstd: CompressionCodec | undefined
  /**
   * Loads ZSTD into {@link zstd}. A server may answer in ZSTD although LZ4 was asked for
   * (its `network_compression_method`), so the packet reader calls this on such a frame.
   */
  loadZstd(): Promise<void>
}

let lz4: Promise<CompressionCodec> | undefined
const zstd = new Map<number, Promise<CompressionCodec>>()

function loadLz4Codec(): Promise<CompressionCodec> {
  // Node: lz4-napi compresses, liblz4 in WebAssembly decompresses (faster, see nodeLz4Codec);
  // Workers: WebAssembly both ways (lz4-codec-workerd.ts).
  lz4 ??= loadLz4()
  // A failed load is not cached: the next transport may ask again.
  lz4.catch(() => {
    lz4 = undefined
  })
  return lz4
}

function loadZstdCodec(level: number): Promise<CompressionCodec> {
  let codec = zstd.get(level)
  if (!codec) {
    codec = loadZstd().then((module) => zstdCodec(module, { zstdLevel: level }))
    codec.catch(() => zstd.delete(level))
    zstd.set(level, codec)
  }
  return codec
}

/** Codecs for a transport that sends `method`; loaded once per process (and ZSTD level). */
export async function loadCompression(method: 'lz4' | 'zstd', zstdLevel: number): Promise<TransportCodecs> {
  const codecs: TransportCodecs = {
    lz4: await loadLz4Codec(),
    zstd: undefined,
    async loadZstd() {
      codecs.zstd ??= await loadZstdCodec(zstdLevel)
    },
  }
  if (method === 'zstd') await codecs.loadZstd()
  return codecs
}
