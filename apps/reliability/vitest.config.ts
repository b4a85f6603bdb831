import { clickwireVitestConfig } from '../../vitest.shared.ts'

const long = process.env.CLICKWIRE_LONG === '1'

// --expose-gc: the load test measures memory after a full collection.
export default clickwireVitestConfig({
  integration: { execArgv: ['--expose-gc'], testTimeout: long ? 3_600_000 : 60_000 },
})
