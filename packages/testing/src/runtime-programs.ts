import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { type RuntimeName, runtimeBinary } from './runtime-binaries.js'

const run = promisify(execFile)

/** A test program of a package: a TypeScript entry that prints its answers on stdout. */
export interface RuntimeProgram {
  /** The package folder: the program's bare imports resolve from its node_modules. */
  readonly packageDir: string
  /** The entry, relative to `packageDir` (e.g. `test/runtimes/conformance-main.ts`). */
  readonly entry: string
  readonly args?: readonly string[] | undefined
  /**
   * Deno's permission flags (default `--allow-net --allow-read --allow-env`, what our README
   * promises Deno needs); other runtimes ignore them.
   */
  readonly denoPermissions?: readonly string[] | undefined
  /** Longest run, then the program is killed and the promise rejects (default 120 s). */
  readonly timeoutMs?: number | undefined
}

/**
 * Node lines cannot run our TypeScript test entries (Node 20 strips no types, and no line
 * takes parameter properties), so the entry alone is bundled into one .mjs inside the package
 * with every package left external: the program then imports the built packages (`dist`)
 * from the package's node_modules, as a user's app does.
 */
async function bundled(program: RuntimeProgram): Promise<string> {
  const out = join(program.packageDir, '.tmp', 'programs', `${basename(program.entry, '.ts')}.mjs`)
  await mkdir(join(program.packageDir, '.tmp', 'programs'), { recursive: true })
  await build({
    entryPoints: [join(program.packageDir, program.entry)],
    outfile: out,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  })
  return out
}

/** How each runtime starts a program: Bun and Deno run the TypeScript sources themselves. */
async function launch(runtime: RuntimeName, program: RuntimeProgram): Promise<string[]> {
  const args = program.args ?? []
  switch (runtime) {
    case 'bun':
      return ['--conditions=@clickwire/source', program.entry, ...args]
    case 'deno':
      // Only --allow-net, --allow-read and --allow-env: what our README promises Deno needs.
      // --sloppy-imports and the source condition only let it run our TypeScript sources; a
      // user's install runs the built files.
      return [
        'run',
        '--quiet',
        '--sloppy-imports',
        '--node-modules-dir=manual',
        '--conditions=@clickwire/source',
        ...(program.denoPermissions ?? ['--allow-net', '--allow-read', '--allow-env']),
        program.entry,
        ...args,
      ]
    case 'workerd':
      throw new Error('workerd runs a worker bundle with a config, not a program')
    default:
      return [await bundled(program), ...args]
  }
}

/**
 * Runs a test program on a runtime the bootstrap installed (Node 20/22/24/26, Bun, Deno) and
 * gives the JSON object on its stdout line that starts with `marker` (default `CONFORMANCE `).
 */
export async function runProgramOn(
  runtime: RuntimeName,
  program: RuntimeProgram,
  marker = 'CONFORMANCE ',
): Promise<Record<string, string>> {
  const { stdout } = await run(runtimeBinary(runtime), await launch(runtime, program), {
    cwd: program.packageDir,
    timeout: program.timeoutMs ?? 120_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  })
  const line = stdout.split('\n').find((each) => each.startsWith(marker))
  if (!line) throw new Error(`${runtime} printed no result:\n${stdout}`)
  return JSON.parse(line.slice(marker.length)) as Record<string, string>
}
