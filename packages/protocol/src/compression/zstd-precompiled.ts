/** The part of the WebAssembly global used here (typed locally: not every lib setting declares it). */
interface WebAssemblyApi {
  Module: { new (bytes: Uint8Array): object; imports(module: object): { module: string; name: string }[] }
  Instance: new (module: object, imports: unknown) => object
  instantiate(source: unknown, imports?: unknown): Promise<unknown>
}

type Imports = Record<string, Record<string, unknown> | undefined>

/**
 * Runs `load` (`@hpcc-js/wasm-zstd`'s `Zstd.load`, which hands its embedded bytes to
 * `WebAssembly.instantiate`) with `module`, the same module precompiled by the runtime,
 * instantiated in their place: Workers refuse to compile bytes, and the package takes no
 * module of its own. Only a call whose imports are exactly what `module` imports is answered
 * so, and only while `load` runs; any other goes to the runtime unchanged.
 */
export async function withPrecompiledZstd<T>(module: object, load: () => Promise<T>): Promise<T> {
  const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly
  const wanted = wasm.Module.imports(module)
  const original = wasm.instantiate
  const matches = (imports: unknown) =>
    typeof imports === 'object' &&
    imports !== null &&
    wanted.every((each) => (imports as Imports)[each.module]?.[each.name] !== undefined)
  wasm.instantiate = function instantiate(source: unknown, imports?: unknown) {
    if (source instanceof (wasm.Module as unknown as new () => object) || !matches(imports))
      return original.call(wasm, source, imports)
    return Promise.resolve({ module, instance: new wasm.Instance(module, imports) })
  }
  try {
    return await load()
  } finally {
    wasm.instantiate = original
  }
}
