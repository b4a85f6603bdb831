import type { CodecFactory } from './column-codec.js'

/** Codecs of types that wrap or combine other types, by canonical family name. */
export const compositeCodecs: ReadonlyArray<readonly [string, CodecFactory]> = []
