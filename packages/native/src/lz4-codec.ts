import type { CompressionCodec } from '@clickwire/protocol'

/**
 * LZ4 for the native transport on Node, Bun and Deno (the default `#lz4-codec`): lz4-napi
 * compresses, liblz4 in WebAssembly decompresses (see nodeLz4Codec).
 */
export function loadLz4Codec(): Promise<CompressionCodec> {
  return import('@clickwire/protocol/compression-node').then((module) => module.nodeLz4Codec())
}
