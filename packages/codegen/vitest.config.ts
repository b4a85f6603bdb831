import { fileURLToPath } from 'node:url'
import { clickwireVitestConfig } from '../../vitest.shared.ts'

const sharedServer = fileURLToPath(new URL('../testing/src/global-setup.ts', import.meta.url))

// The shared server first; then codegen's own setup (build for the CLI tests, test schema).
export default clickwireVitestConfig({
  integration: { globalSetup: [sharedServer, './test/support/global-setup.ts'] },
})
