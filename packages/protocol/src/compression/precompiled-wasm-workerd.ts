// `#precompiled-wasm` under the `workerd` condition (Cloudflare Workers, wrangler and other
// bundlers that target it): a `.wasm` import is a WebAssembly.Module the runtime compiled
// when it loaded the worker, the only kind of module Workers instantiate.
// @ts-expect-error a .wasm import: bundlers for Workers give its WebAssembly.Module
import cityHash from './cityhash.wasm'
// @ts-expect-error as above
import lz4 from './lz4.wasm'
// @ts-expect-error as above
import zstd from './zstd.wasm'

/** liblz4's module, precompiled by the runtime (the same bytes as lz4-wasm.gen.ts). */
export const precompiledLz4: object | undefined = lz4 as object

/** CityHash128's module, precompiled by the runtime (the same bytes as cityhash-wasm.gen.ts). */
export const precompiledCityHash: object | undefined = cityHash as object

/** ZSTD's module, precompiled by the runtime (the one inside @hpcc-js/wasm-zstd, see extract-zstd-wasm.mjs). */
export const precompiledZstd: object | undefined = zstd as object
