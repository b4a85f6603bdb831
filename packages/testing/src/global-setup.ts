import type {} from 'vitest'
import type { TestProject } from 'vitest/node'
import { startClickHouse } from './clickhouse-server.js'
import type { ClickHouseServer } from './server-info.js'

import './vitest-context.js'

let server: ClickHouseServer | undefined

/**
 * Vitest global setup: one server per test run (not per file), with TLS ports where the
 * generation has them, handed to tests through `inject('clickhouse')`. Teardown stops it; if
 * the run is killed instead, the server's keeper process stops it and deletes its folder.
 *
 * A server that dies during the run is said out loud, with its log tail, and started again
 * on the same ports and data, so that one crash shows as itself and not as every later test
 * failing for no visible reason.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now()
  server = await startClickHouse({ tls: true })
  const running = server
  console.log(
    `[clickwire] ${running.source} ClickHouse ${running.version} (${running.generation}) ready in ${Date.now() - started} ms`,
  )
  const unsubscribe = running.onUnexpectedExit((logTail) => {
    console.error(
      `[clickwire] THE CLICKHOUSE SERVER (${running.version}) EXITED DURING THE RUN; restarting it. Its log ends:\n${logTail}`,
    )
    // The dead process may still hold its ports for a moment: try a few times.
    const restart = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await running.restart()
          console.error(`[clickwire] the server is back (attempt ${attempt})`)
          return
        } catch (error) {
          if (attempt >= 5) throw error
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
        }
      }
    }
    restart().catch((error: unknown) => {
      console.error(`[clickwire] the server could not be restarted: ${String(error)}`)
    })
  })
  project.provide('clickhouse', running.info())
  return async () => {
    unsubscribe()
    await server?.stop()
    server = undefined
  }
}
