/**
 * The compressed frame ClickHouse puts around data (ClickHouse calls it a compressed
 * block; src/Compression/CompressionInfo.h, CompressedReadBufferBase.cpp):
 *
 * ```
 * [16] CityHash128 v1.0.2 of everything after it: low 64 bits, high 64 bits, little-endian
 * [1]  method: 0x02 NONE, 0x82 LZ4 (also LZ4HC), 0x90 ZSTD
 * [4]  u32 LE compressed size, counting these 9 header bytes
 * [4]  u32 LE uncompressed size
 * [..] payload
 * ```
 *
 * Writers cut frames at `max_compress_block_size` (1 MiB) of uncompressed data. Over the
 * native protocol only block bodies travel in frames; over HTTP, `decompress=1` request
 * bodies and `compress=1` response bodies are whole streams of frames.
 */

/** Method bytes of the codecs clickwire reads and writes. */
export const CompressionMethodByte = {
  none: 0x02,
  lz4: 0x82,
  zstd: 0x90,
} as const

/** A frame compression method: `lz4` (ClickHouse's default), `zstd`, or `none`. */
export type CompressionMethod = keyof typeof CompressionMethodByte

export const checksumSize = 16
/** Method byte and the two sizes. */
export const frameHeaderSize = 9
/** Checksum and header: the bytes needed to know a frame's length. */
export const frameOverhead = checksumSize + frameHeaderSize

/** ClickHouse's limit on a frame's compressed size (DBMS_MAX_COMPRESSED_SIZE, 1 GiB). */
export const maxCompressedSize = 0x4000_0000
/** Our limit on a frame's declared uncompressed size, so a bad header cannot make us allocate more. */
export const defaultMaxUncompressedSize = 0x4000_0000
/** Uncompressed bytes per frame when writing (ClickHouse's `max_compress_block_size`). */
export const defaultFrameSize = 1 << 20

/** The method name of a method byte, or undefined for bytes clickwire does not know. */
export function methodOfByte(byte: number): CompressionMethod | undefined {
  if (byte === CompressionMethodByte.lz4) return 'lz4'
  if (byte === CompressionMethodByte.zstd) return 'zstd'
  if (byte === CompressionMethodByte.none) return 'none'
  return undefined
}

/** Little-endian u32 at `at` (the caller has checked the bounds). */
export function u32At(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
}

export function setU32At(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value
  bytes[at + 1] = value >>> 8
  bytes[at + 2] = value >>> 16
  bytes[at + 3] = value >>> 24
}
