import { type CompressionCodec, UsageError } from '@clickwire/protocol'

/**
 * LZ4 for the native transport on Cloudflare Workers (`#lz4-codec` under the `workerd`
 * condition): liblz4 in WebAssembly both ways, its module precompiled by the runtime. The
 * lz4-napi addon cannot be bundled for Workers, so this build never imports it.
 */
export async function loadLz4Codec(): Promise<CompressionCodec> {
  const { portableCompression } = await import('@clickwire/protocol/frames')
  const { lz4 } = await portableCompression()
  if (lz4 === undefined)
    throw new UsageError(
      "LZ4 cannot load in this runtime (WebAssembly is unavailable): use compression 'none'",
    )
  return lz4
}
