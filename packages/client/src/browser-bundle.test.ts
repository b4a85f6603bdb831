// What a browser page that only queries rows weighs, bundled with esbuild as
// scripts/measure-bundle.mjs does (`--bundle --minify --format=esm --platform=browser`,
// with --splitting for what loads before the page runs). Arrow and ZSTD load on demand,
// and the LZ4 native addon never reaches a browser bundle at all.
import { beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error a plain .mjs script, without types
import { measurePage, pages } from '../scripts/measure-bundle.mjs'

interface Measured {
  readonly single: { minified: number; gzip: number }
  readonly initial: { minified: number; gzip: number }
  readonly lazy: { minified: number; gzip: number }
  readonly initialInputs: string[]
  readonly allInputs: string[]
  readonly initialBytes: [string, number][]
}

/** Minified bytes of what loads first, by package and source folder: where the weight is. */
function weightByArea(measured: Measured): string {
  const areas = new Map<string, number>()
  for (const [input, bytes] of measured.initialBytes) {
    // `../protocol/src/columns/x.ts` is protocol/columns; this package's own files are `src/...`.
    const path = input.replace(/^(\.\.\/)+/, '').replace(/^src\//, 'client/src/')
    const parts = path.split('/')
    const area =
      parts[1] === 'src'
        ? parts
            .slice(0, parts.length > 3 ? 3 : 1)
            .filter((part) => part !== 'src')
            .join('/')
        : path
    areas.set(area, (areas.get(area) ?? 0) + bytes)
  }
  return [...areas]
    .sort((a, b) => b[1] - a[1])
    .map(([area, bytes]) => `${area} ${(bytes / 1000).toFixed(1)} kB`)
    .join(', ')
}

/**
 * The most a rows-only page may weigh up front, gzipped (bytes), with a little room, so that
 * it cannot grow unnoticed. It weighs 65.65 kB now: issue 28's names of the error codes that
 * 18.16 prints without one (44 more, 1.3 kB minified; an error's `codeName` is set when it is
 * made, so the table cannot wait for an `import()`) added 0.70 kB, the probe that tells a
 * wrong password from a server that is down loading only after a failed request. Before:
 * 64.95 kB: issue 28's sessions and option checks
 * added 4.26 kB, and every call needs them up front: a call's options are checked before it
 * starts, and the hint for a @clickhouse/client name must be thrown by `createClient` itself,
 * synchronously (the table of those names, 2.6 kB minified, and the per-call checks, 2.4 kB),
 * `session()` and the SET/USE/CREATE TEMPORARY TABLE guard, and HTTP's retry of a session
 * that is still locked. Before: 60.69 kB, 0.69 kB over the 60 kB an earlier issue set, for
 * issue 29's protections, each moved out of the first load as far as it went: the
 * bounds on what a block declares and a block of no columns ending a Native body (0.34 kB;
 * a hostile server otherwise turns them into gigabytes of memory or minutes of CPU), the
 * Float32 range check of inserted JS numbers and the plumbing of `redactParams` (whose code,
 * like the words of an HTTP 400 for a URL too long, loads on demand), and the settings that
 * let the server stop a read-only SELECT whose socket closed. Before: 59.91 kB: 59.83 kB
 * plus strict numeric text and the float range check of inserted values (0.08 kB). The
 * 59.83 kB were measured after revision 54492 was announced; before it, 59.3 kB: 59.9 kB plus
 * revision 54492 (the size-stream String codec loads on demand; HTTP asks 26.8 on for it),
 * less the sparse and replicated layouts (1.1 kB), which load on demand too since an HTTP
 * body at revision 0 cannot carry them. Before that: 59.7 kB: 60.5 kB, less
 * value-type inference (1.5 kB gzipped), which left the first load when protocol's main
 * entry stopped re-exporting it (esbuild keeps every module an entry re-exports), plus
 * external tables over HTTP and `queryArrow()` (0.7 kB). Before that: 58.9 kB, plus
 * replica-aware balancing and cluster discovery's option check, the direct-to-shard
 * insert's option and ShardInsertError, the process-wide string cache and the scalar-type
 * check of row iteration, less the `sql` tag's module and the tracer. Earlier: 73.5 kB
 * before parameter formatting, compressed frames, block writing and the FORMAT-clause lexer
 * left protocol's main entry point for sub-paths the HTTP transport loads with `import()`;
 * 124.5 kB before Arrow and the insert code became lazy.
 */
const limitGzip = 66_000

let rowsOnly: Measured
let withArrow: Measured

beforeAll(async () => {
  rowsOnly = await measurePage(pages.clickwire, { source: true })
  withArrow = await measurePage(pages['clickwire + arrow()'], { source: true })
}, 120_000)

describe('the browser bundle of a rows-only page', () => {
  it(`loads at most ${limitGzip / 1000} kB gzipped before it runs`, () => {
    expect(
      rowsOnly.initial.gzip,
      `${rowsOnly.initial.minified} bytes minified; by area: ${weightByArea(rowsOnly)}`,
    ).toBeLessThanOrEqual(limitGzip)
  })

  it("loads apache-arrow, ZSTD, the insert code and the rarer types' codecs only on demand", () => {
    const eager = rowsOnly.initialInputs.join('\n')
    expect(eager).not.toMatch(/apache-arrow|flatbuffers|wasm-zstd|arrow-table|insert-values/)
    expect(eager).not.toMatch(
      /\/(dynamic|json|variant|geometry|qbit|aggregate-function|time|time64|bfloat16)-column\.ts|aggregate-state-extent|row-binary-value/,
    )
    // Off protocol's main entry (esbuild puts whatever an entry imports, even re-exported
    // only, in what loads first): parameters, frames, block writing and the SQL lexer.
    expect(eager).not.toMatch(
      /\/params\/|frame-reader|frame-writer|cityhash|native-block-writer|insert-outcome|sql-lexer|sql\/format-clause/,
    )
    expect(withArrow.allInputs.some((input) => input.endsWith('columns/json-column.ts'))).toBe(true)
    // They are still reachable, through import(): arrow() works in the page.
    expect(withArrow.allInputs.some((input) => input.includes('apache-arrow'))).toBe(true)
    expect(rowsOnly.lazy.minified).toBeGreaterThan(200_000)
  })

  it('never contains OpenTelemetry: tracing imports it by a computed name, at run time', () => {
    for (const inputs of [rowsOnly.allInputs, withArrow.allInputs]) {
      expect(inputs.filter((input) => /opentelemetry/.test(input))).toEqual([])
    }
  })

  it('never contains the LZ4 native addon or a Node built-in', () => {
    for (const inputs of [rowsOnly.allInputs, withArrow.allInputs]) {
      expect(inputs.filter((input) => /lz4-napi|compression-node|\.node$|^node:/.test(input))).toEqual([])
    }
  })
})
