// Node-only entry (`@clickwire/protocol/compression-node`): LZ4 through the lz4-napi addon.
export { type Lz4Addon, loadLz4, lz4Codec, nodeCompression } from './compression/compression-node.js'
