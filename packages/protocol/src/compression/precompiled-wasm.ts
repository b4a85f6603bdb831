// The precompiled WebAssembly modules of this runtime: none here, so the codecs compile
// their modules from the bytes in *.gen.ts. Under the `workerd` export condition the package's
// `#precompiled-wasm` import is precompiled-wasm-workerd.ts instead, where the bundler hands
// the `.wasm` files over as compiled modules (Workers forbid compiling from bytes).

/** liblz4's module (lz4.wasm), compiled by the runtime; undefined: compile lz4-wasm.gen.ts. */
export const precompiledLz4: object | undefined = undefined

/** CityHash128's module (cityhash.wasm), compiled by the runtime; undefined: compile cityhash-wasm.gen.ts. */
export const precompiledCityHash: object | undefined = undefined

/** ZSTD's module (zstd.wasm, @hpcc-js/wasm-zstd's), compiled by the runtime; undefined: the package compiles its own. */
export const precompiledZstd: object | undefined = undefined
