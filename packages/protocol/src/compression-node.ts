// Node-only entry (`@clickwire/protocol/compression-node`): LZ4 through the lz4-napi addon
// (compression) and liblz4 in WebAssembly (decompression). Browsers reach the WebAssembly
// codec through portableCompression(), which loads it on demand: exporting it from the main
// entry would put its 10 kB into every page's first load.
export {
  type Lz4Addon,
  loadLz4,
  lz4Codec,
  nodeCompression,
  nodeLz4Codec,
} from './compression/compression-node.js'
export {
  compileLz4Wasm,
  Lz4Wasm,
  loadLz4Wasm,
  loadLz4WasmSync,
  lz4WasmCodec,
} from './compression/lz4-wasm.js'
