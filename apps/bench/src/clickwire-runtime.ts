import { execFileSync } from 'node:child_process'
import { type RuntimeName, runtimeBinary } from '@clickwire/testing'

/** The runtimes `--runtime` can run clickwire's own variants on (the bootstrap installs each). */
export const benchRuntimes = ['node20', 'node22', 'node24', 'node26', 'bun', 'deno'] as const
export type BenchRuntime = (typeof benchRuntimes)[number]

/** How clickwire's variants are started: the program and what goes before the script. */
export interface ClickwireRuntime {
  readonly name: string
  readonly file: string
  readonly prefix: readonly string[]
  /** The runtime's own version line, for the report. */
  readonly version: string
}

/**
 * The runtime that runs clickwire's variants (child-clickwire*.js, the built packages): the
 * bench's own Node when none is asked for. The peers' programs (@clickhouse/client's among
 * them) stay on the bench's Node, so a report compares clickwire on one runtime with the
 * same peers.
 */
export function clickwireRuntime(name: BenchRuntime | undefined): ClickwireRuntime {
  if (name === undefined)
    return { name: 'node', file: process.execPath, prefix: [], version: `Node.js ${process.version}` }
  const file = runtimeBinary(name as RuntimeName)
  // Deno: the variants read the dataset files and their environment, and talk to the server.
  const prefix = name === 'deno' ? ['run', '--allow-all', '--node-modules-dir=manual'] : []
  const raw = execFileSync(file, ['--version'], { encoding: 'utf8' }).trim().split('\n')[0]!
  const version = name.startsWith('node') ? `Node.js ${raw}` : name === 'bun' ? `Bun ${raw}` : raw
  return { name, file, prefix, version }
}

/** `--runtime`'s parser: one of {@link benchRuntimes}. */
export function parseRuntime(value: string): BenchRuntime {
  if ((benchRuntimes as readonly string[]).includes(value)) return value as BenchRuntime
  throw new Error(`--runtime takes one of ${benchRuntimes.join(', ')}, not ${value}`)
}
