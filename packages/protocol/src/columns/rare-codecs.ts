// The codecs of the rarer type families, and the sparse and replicated column layouts
// (only the native protocol and HTTP bodies at a client_protocol_version carry them),
// loaded on demand (see rare-codec-loader.ts): a page
// or process that never meets these types never loads them. Dynamic and JSON decode their
// values by types that arrive inside the column, so every family those may hold that is not
// in the eager registry lives here, in the same chunk: once this module is loaded, decoding
// never waits again.
import { aggregateFunctionCodec } from './aggregate-function-column.js'
import { bfloat16Codec } from './bfloat16-column.js'
import type { CodecFactory } from './column-codec.js'
import { dynamicCodec } from './dynamic-column.js'
import { geometryCodec } from './geometry-column.js'
import { jsonCodec } from './json-column.js'
import { qbitCodec } from './qbit-column.js'
import { stringBlobCodec } from './string-blob-column.js'
import { timeCodec } from './time-column.js'
import { time64Codec } from './time64-column.js'
import { variantCodec } from './variant-column.js'

/** Factories of the families rare-codec-loader.ts names, by canonical family name. */
export const rareCodecFactories: Readonly<Record<string, CodecFactory>> = {
  BFloat16: bfloat16Codec,
  Time: timeCodec,
  Time64: time64Codec,
  AggregateFunction: aggregateFunctionCodec,
  Variant: variantCodec,
  Dynamic: dynamicCodec,
  JSON: jsonCodec,
  Geometry: geometryCodec,
  QBit: qbitCodec,
  /** String in the size-stream layout of revision 54492 (not a family: stringCodec picks it by revision). */
  StringBlob: stringBlobCodec,
}

export { replicatedCodecOf } from './replicated-column.js'
export { sparseCodecOf } from './sparse-column.js'
