import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The JavaScript runtimes `scripts/install-runtimes.sh` installs (pinned there). */
export type RuntimeName = 'node20' | 'node22' | 'node24' | 'node26' | 'bun' | 'deno' | 'workerd'

const binaries: Record<RuntimeName, string> = {
  node20: 'node20/bin/node',
  node22: 'node22/bin/node',
  node24: 'node24/bin/node',
  node26: 'node26/bin/node',
  bun: 'bun/bin/bun',
  deno: 'deno/deno',
  workerd: 'workerd/bin/workerd',
}

const runtimesDir = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'node_modules',
  '.cache',
  'clickwire',
  'runtimes',
)

/**
 * The executable of a runtime the bootstrap installed; a missing one is an error that says how
 * to install it (tests never skip a runtime the matrix promises).
 */
export function runtimeBinary(name: RuntimeName): string {
  const file = join(runtimesDir, binaries[name])
  if (!existsSync(file)) throw new Error(`${name} is not installed: run scripts/install-runtimes.sh ${name}`)
  return file
}
