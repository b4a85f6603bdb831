import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'
import { createSchema } from './codegen-schema.js'

const packageDir = fileURLToPath(new URL('../../', import.meta.url))

/**
 * Once per integration run, after the shared server is up: builds dist/ (the CLI tests run
 * bin/clickwire-codegen.js as a real process, which imports the build; turbo has built the
 * dependencies) and creates the test schema that every test file reads.
 */
export default async function setup(project: TestProject): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir })
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw new Error(`building @clickwire/codegen for the CLI tests failed:\n${stdout}${stderr}`)
  }
  const { httpUrl, generation } = project.getProvidedContext().clickhouse
  // Each generation's own schema (see schemaSqlOf).
  await createSchema(httpUrl, generation)
}
