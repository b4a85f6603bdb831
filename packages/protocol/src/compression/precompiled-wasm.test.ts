import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cityHashWasmBase64 } from './cityhash-wasm.gen.js'
import { lz4WasmBase64 } from './lz4-wasm.gen.js'

/** The WebAssembly global (this package's lib settings declare only its namespace's types). */
const WebAssemblyGlobal = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => object
      CompileError: new (message: string) => Error
      compile(bytes: Uint8Array): Promise<object>
      instantiate(bytes: Uint8Array, imports?: unknown): Promise<unknown>
      instantiateStreaming(source: unknown): Promise<unknown>
    }
  }
).WebAssembly

const file = (name: string) => new Uint8Array(readFileSync(new URL(name, import.meta.url)))
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

// What a Workers bundler hands over: the .wasm files, compiled by the runtime, not by us.
const compiled = {
  lz4: new WebAssemblyGlobal.Module(file('./lz4.wasm')),
  cityHash: new WebAssemblyGlobal.Module(file('./cityhash.wasm')),
  zstd: new WebAssemblyGlobal.Module(file('./zstd.wasm')),
}

vi.mock('#precompiled-wasm', () => ({ precompiledLz4: compiled.lz4, precompiledCityHash: compiled.cityHash }))

afterEach(() => {
  vi.restoreAllMocks()
  vi.doUnmock('@hpcc-js/wasm-zstd')
})

describe('the .wasm files', () => {
  it('are the modules of the generated base64 (the scripts --check both)', () => {
    expect(base64(file('./lz4.wasm'))).toBe(lz4WasmBase64)
    expect(base64(file('./cityhash.wasm'))).toBe(cityHashWasmBase64)
  })
})

describe('codecs over precompiled modules (the workerd condition)', () => {
  it('LZ4 compiles nothing from bytes and round-trips', async () => {
    const compile = vi.spyOn(WebAssemblyGlobal, 'compile')
    const construct = vi.spyOn(WebAssemblyGlobal, 'Module')
    const { compileLz4Wasm, loadLz4Wasm, loadLz4WasmSync } = await import('./lz4-wasm.js')
    expect(await compileLz4Wasm()).toBe(compiled.lz4)
    const data = new TextEncoder().encode('clickwire '.repeat(1000))
    for (const lz4 of [await loadLz4Wasm(), loadLz4WasmSync()]) {
      const block = lz4.compress(data).slice()
      expect(block.length).toBeLessThan(200)
      expect(lz4.decompress(block, data.length)).toEqual(data)
    }
    expect(compile).not.toHaveBeenCalled()
    expect(construct).not.toHaveBeenCalled()
  })

  it('CityHash128 instantiates the precompiled module and hashes as ClickHouse does', async () => {
    const construct = vi.spyOn(WebAssemblyGlobal, 'Module')
    const { loadCityHashWasm } = await import('./cityhash-wasm.js')
    const { checksumHex } = await import('./cityhash.js')
    const { cityHash128Js } = await import('./cityhash-js.js')
    const wasm = loadCityHashWasm()
    expect(wasm).toBeDefined()
    const out = new Uint8Array(16)
    // ClickHouse's own checksum of 'abc' (as in cityhash.test.ts).
    wasm!.hashInto(new TextEncoder().encode('abc'), 0, 3, out, 0)
    expect(checksumHex(out)).toBe('900ff195577748fe13a9176355b20d7e')
    // A long input (the block path) agrees with the JavaScript implementation.
    const long = new TextEncoder().encode('clickwire '.repeat(1000))
    const js = new Uint8Array(16)
    wasm!.hashInto(long, 0, long.length, out, 0)
    cityHash128Js(long, 0, long.length, js, 0)
    expect(out).toEqual(js)
    expect(construct).not.toHaveBeenCalled()
  })
})

describe('ZSTD where WebAssembly cannot be compiled from bytes', () => {
  it('is a UsageError naming lz4, and LZ4 still loads', async () => {
    const refuse = () => {
      throw new WebAssemblyGlobal.CompileError('Wasm code generation disallowed by embedder')
    }
    vi.spyOn(WebAssemblyGlobal, 'instantiate').mockImplementation(refuse)
    vi.spyOn(WebAssemblyGlobal, 'instantiateStreaming').mockImplementation(refuse)
    vi.spyOn(WebAssemblyGlobal, 'compile').mockImplementation(refuse)
    vi.resetModules()
    // No precompiled zstd.wasm: the package's own compile is what the runtime refuses.
    vi.doMock('#precompiled-wasm', () => ({
      precompiledLz4: compiled.lz4,
      precompiledCityHash: compiled.cityHash,
      precompiledZstd: undefined,
    }))
    vi.doMock('@hpcc-js/wasm-zstd', () => ({
      Zstd: { load: () => WebAssemblyGlobal.instantiate(new Uint8Array(8)) },
    }))
    const { loadZstd, portableCompression } = await import('./compression-portable.js')
    const { UsageError } = await import('../errors/usage-error.js')
    const failure = await loadZstd().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(UsageError)
    expect((failure as Error).message).toBe(
      "ZSTD cannot load in this runtime (Wasm code generation disallowed by embedder): use compression 'lz4' or 'none'",
    )
    const codecs = await portableCompression()
    const data = new TextEncoder().encode('abc'.repeat(100))
    expect(() => codecs.zstd!.compress(data)).toThrow(failure as Error)
    const block = codecs.lz4!.compress(data)
    expect(block.length).toBeLessThan(40)
  })

  it('loads from the precompiled zstd.wasm (the workerd condition) and round-trips', async () => {
    const instantiate = WebAssemblyGlobal.instantiate
    const calls: string[] = []
    vi.spyOn(WebAssemblyGlobal, 'instantiate').mockImplementation((source: unknown, imports?: unknown) => {
      calls.push(source instanceof WebAssemblyGlobal.Module ? 'module' : 'bytes')
      if (source instanceof WebAssemblyGlobal.Module) return instantiate(source as Uint8Array, imports)
      return Promise.reject(new WebAssemblyGlobal.CompileError('Wasm code generation disallowed by embedder'))
    })
    const construct = vi.spyOn(WebAssemblyGlobal, 'Module')
    vi.resetModules()
    vi.doMock('#precompiled-wasm', () => ({
      precompiledLz4: compiled.lz4,
      precompiledCityHash: compiled.cityHash,
      precompiledZstd: compiled.zstd,
    }))
    const { loadZstd } = await import('./compression-portable.js')
    const zstd = await loadZstd()
    const data = new TextEncoder().encode('clickwire '.repeat(10_000))
    const compressed = zstd.compress(data, 1)
    expect(compressed.length).toBeLessThan(200)
    expect(zstd.decompress(compressed)).toEqual(data)
    // The package asked for its bytes to be compiled; the precompiled module answered instead.
    expect(calls).toEqual([])
    expect(construct).not.toHaveBeenCalled()
  })
})
