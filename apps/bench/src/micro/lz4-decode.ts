/**
 * LZ4 frame payloads, side by side: lz4-napi (lz4_flex behind N-API, what Node used) against
 * liblz4 compiled to WebAssembly (@clickwire/protocol's Lz4Wasm), decoding and encoding.
 *
 * `pnpm --filter @clickwire/bench bench:lz4` (builds, then runs). Frames are cut at
 * ClickHouse's max_compress_block_size (1 MiB of uncompressed data) from four inputs:
 * ontime-like Native columns (the bench's generator, one day's block column after column),
 * short strings (its String columns only), random Int32 and sequential UInt64. Each cell is
 * the best of several passes over all frames, in GB/s of uncompressed bytes per second of
 * the process's CPU time.
 */
import { createRequire } from 'node:module'
import { loadLz4WasmSync } from '@clickwire/protocol/compression-node'
import { concatBytes } from '@clickwire/testing'
import { generateOntime } from '../ontime-generator.js'
import { RandomSource } from '../random-source.js'

interface Lz4Napi {
  compressSync(data: Uint8Array): Buffer
  uncompressSync(data: Uint8Array): Buffer
}

const napi = createRequire(import.meta.url)('lz4-napi') as Lz4Napi
const frameSize = 1 << 20

/** Native serialization of ontime-like days: each column's values in a row, strings as varint length + bytes. */
function ontimeNative(days: number, stringsOnly: boolean): Uint8Array {
  const parts: Uint8Array[] = []
  const encoder = new TextEncoder()
  for (const day of generateOntime({ before: `2017-01-${String(days + 1).padStart(2, '0')}` })) {
    for (const values of Object.values(day.columns)) {
      if (Array.isArray(values)) {
        const bytes: number[] = []
        for (const text of values) {
          const encoded = encoder.encode(text)
          bytes.push(encoded.length, ...encoded)
        }
        parts.push(Uint8Array.from(bytes))
      } else if (!stringsOnly) {
        parts.push(new Uint8Array(values.buffer, values.byteOffset, values.byteLength))
      }
    }
  }
  return concatBytes(...parts)
}

function randomInt32(bytes: number): Uint8Array {
  const random = new RandomSource(42)
  const values = new Int32Array(bytes / 4)
  for (let i = 0; i < values.length; i++) values[i] = random.nextUint32() | 0
  return new Uint8Array(values.buffer)
}

function sequentialUInt64(bytes: number): Uint8Array {
  const values = new BigUint64Array(bytes / 8)
  for (let i = 0; i < values.length; i++) values[i] = 1_000_000_000n + BigInt(i)
  return new Uint8Array(values.buffer)
}

interface Frame {
  readonly data: Uint8Array
  /** lz4-napi's block with its u32 size prefix (what it takes back). */
  readonly prefixed: Uint8Array
  /** The bare block: a frame's payload. */
  readonly block: Uint8Array
}

function framesOf(data: Uint8Array): Frame[] {
  const frames: Frame[] = []
  for (let at = 0; at < data.length; at += frameSize) {
    const part = data.slice(at, at + frameSize)
    const prefixed = new Uint8Array(napi.compressSync(part))
    frames.push({ data: part, prefixed, block: prefixed.subarray(4) })
  }
  return frames
}

/**
 * CPU time of this process (all its threads: the GC's helpers count), in milliseconds.
 * Used instead of wall time, which on a shared machine mostly measures the other processes.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/**
 * Best GB/s of each of `runs` over `passes` timed passes, each running it over every frame
 * for at least `minMs` of CPU time. Passes go round-robin over the runs, so load from other processes
 * on the machine hits them alike.
 */
function measure(
  frames: readonly Frame[],
  runs: Record<string, (frame: Frame) => void>,
  passes = 9,
  minMs = 100,
): Record<string, number> {
  const bytes = frames.reduce((sum, frame) => sum + frame.data.length, 0)
  const best: Record<string, number> = {}
  for (let pass = 0; pass < passes; pass++) {
    for (const [name, run] of Object.entries(runs)) {
      let rounds = 0
      const start = cpuMs()
      let elapsed = 0
      do {
        for (const frame of frames) run(frame)
        rounds++
        elapsed = cpuMs() - start
      } while (elapsed < minMs)
      best[name] = Math.max(best[name] ?? 0, (bytes * rounds) / (elapsed * 1e6))
    }
  }
  return best
}

function main(): void {
  const inputs: [string, Uint8Array][] = [
    ['ontime-like columns', ontimeNative(3, false)],
    ['short strings', ontimeNative(3, true)],
    ['random Int32', randomInt32(16 << 20)],
    ['sequential UInt64', sequentialUInt64(16 << 20)],
  ]
  const lz4 = loadLz4WasmSync()
  const target = new Uint8Array(frameSize)
  const rows: string[][] = []
  for (const [name, data] of inputs) {
    const frames = framesOf(data)
    const compressed = frames.reduce((sum, frame) => sum + frame.block.length, 0)
    for (const frame of frames) {
      const viaWasm = lz4.decompressView(frame.block, frame.data.length)
      if (Buffer.compare(viaWasm, frame.data) !== 0) throw new Error(`WebAssembly decoded ${name} wrongly`)
    }
    const decode = measure(frames, {
      napi: (frame) => napi.uncompressSync(frame.prefixed),
      view: (frame) => lz4.decompressView(frame.block, frame.data.length),
      copy: (frame) => lz4.decompress(frame.block, frame.data.length),
      into: (frame) => lz4.decompressInto(frame.block, frame.data.length, target),
    })
    const encode = measure(
      frames,
      { napi: (frame) => napi.compressSync(frame.data), wasm: (frame) => lz4.compress(frame.data) },
      5,
    )
    const ratio = data.length / compressed
    rows.push([
      name,
      `${(data.length / 2 ** 20).toFixed(1)} MiB / ${frames.length}`,
      ratio.toFixed(2),
      ...[decode.napi, decode.view, decode.copy, decode.into, encode.napi, encode.wasm].map((v) =>
        v!.toFixed(2),
      ),
    ])
  }
  const header = [
    'input',
    'size / frames',
    'ratio',
    'dec napi',
    'dec wasm view',
    'dec wasm copy',
    'dec wasm into',
    'enc napi',
    'enc wasm',
  ]
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`
  console.log(`LZ4, GB/s of uncompressed bytes per CPU second (best of passes), Node ${process.version}`)
  console.log(line(header))
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
  for (const row of rows) console.log(line(row))
  console.log(
    'view: decoded in WebAssembly memory; copy: into a new array (what the frame codec returns); into: a reused buffer',
  )
}

main()
