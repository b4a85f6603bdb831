import type {} from 'vitest'
import type { TestProject } from 'vitest/node'
import { type ClickHouseServer, startClickHouse } from './clickhouse-server.js'

import './vitest-context.js'

let server: ClickHouseServer | undefined

/**
 * Vitest global setup: one server per test run (not per file), with TLS ports, handed to
 * tests through `inject('clickhouse')`. Teardown stops it; if the run is killed instead,
 * the server's keeper process stops it and deletes its folder.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now()
  server = await startClickHouse({ tls: true })
  if (process.env.CLICKWIRE_HARNESS_TIMING) {
    console.log(
      `[clickwire] ${server.source} ClickHouse ${server.version} ready in ${Date.now() - started} ms`,
    )
  }
  project.provide('clickhouse', server.info())
  return async () => {
    await server?.stop()
    server = undefined
  }
}
