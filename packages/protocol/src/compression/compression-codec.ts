/**
 * A block compressor for one frame method. Implementations are injected so that the frame
 * code itself runs anywhere: Node gets LZ4 from a native addon and liblz4 in WebAssembly
 * (`nodeCompression()` in compression-node.ts), browsers LZ4 and ZSTD from WebAssembly
 * (`portableCompression()`).
 */
export interface CompressionCodec {
  /**
   * Compresses `data` (never empty) and returns the payload that follows the frame header.
   * The result may be a view of memory the codec reuses; it is copied before the next call.
   */
  compress(data: Uint8Array): Uint8Array
  /**
   * Decompresses one frame. `block` is the frame from its method byte on, as ClickHouse's
   * codecs receive it: the 9-byte header (method, u32 compressed size, u32 uncompressed
   * size) then the payload. `uncompressedSize` is the size the header declares. Returns the
   * bytes in memory of their own, which readers keep as the memory of decoded columns (the
   * frame reader checks the length), or throws on corrupt input.
   */
  decompress(block: Uint8Array, uncompressedSize: number): Uint8Array
  /**
   * Optional: decompresses one frame (`block` as for {@link decompress}) into
   * `target[offset, offset + uncompressedSize)`, memory the caller owns, with no allocation.
   * Throws on corrupt input, or when the frame does not decode to exactly that many bytes.
   */
  decompressInto?(block: Uint8Array, uncompressedSize: number, target: Uint8Array, offset: number): void
}

/** The codecs available for frames; NONE needs none. */
export interface CompressionCodecs {
  readonly lz4?: CompressionCodec | undefined
  readonly zstd?: CompressionCodec | undefined
}
