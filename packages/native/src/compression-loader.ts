import type { CompressionCodecs } from '@clickwire/protocol'

let codecs: Promise<CompressionCodecs> | undefined

/** LZ4 (native addon) and ZSTD (WebAssembly), loaded once per process on first use. */
export function loadCompression(): Promise<CompressionCodecs> {
  codecs ??= import('@clickwire/protocol/compression-node').then((module) => module.nodeCompression())
  return codecs
}
