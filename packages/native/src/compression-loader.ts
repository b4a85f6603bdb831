import type { CompressionCodecs } from '@clickwire/protocol'

const loaded = new Map<number, Promise<CompressionCodecs>>()

/** LZ4 (native addon) and ZSTD (WebAssembly) at a ZSTD level, loaded once per process and level. */
export function loadCompression(zstdLevel: number): Promise<CompressionCodecs> {
  let codecs = loaded.get(zstdLevel)
  if (!codecs) {
    codecs = import('@clickwire/protocol/compression-node').then((module) =>
      module.nodeCompression({ zstdLevel }),
    )
    // A failed load (a bad level) is not cached: the next transport may ask again.
    codecs.catch(() => loaded.delete(zstdLevel))
    loaded.set(zstdLevel, codecs)
  }
  return codecs
}
