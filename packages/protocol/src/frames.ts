// `@clickwire/protocol/frames`: ClickHouse compressed frames (reading, writing, the
// CityHash128 checksum) and the portable block codecs (liblz4 and ZSTD in WebAssembly).
// Off the main entry so that callers can load it with `import()` only when compression is
// on, keeping it out of a browser page's first load.
export {
  checksumHex,
  cityhash128,
  cityhash128Implementation,
  cityhash128Into,
} from './compression/cityhash.js'
export {
  defaultZstdLevel,
  loadZstd,
  portableCompression,
  type ZstdLibrary,
  type ZstdOptions,
  zstdCodec,
  zstdContentSize,
} from './compression/compression-portable.js'
export {
  decompressFrames,
  FrameDecoder,
  type FrameReadOptions,
  readFrame,
} from './compression/frame-reader.js'
export {
  compressFrames,
  type FrameOptions,
  FrameWriter,
  writeFrame,
  writeFrames,
} from './compression/frame-writer.js'
