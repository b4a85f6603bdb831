import { type Kysely, sql } from 'kysely'
import { expect } from 'vitest'

/**
 * Every runner takes the migration lock at once, holds it for 100 ms and lets it go; then
 * the spans it was held must not overlap, one per runner.
 */
export async function expectLockExcludes(
  runners: readonly Kysely<unknown>[],
  options: { readonly lockTable: string; readonly lockRowId: string },
): Promise<void> {
  const spans: [number, number][] = []
  await Promise.all(
    runners.map((runner) =>
      runner.connection().execute(async (connection) => {
        const adapter = connection.getExecutor().adapter
        await adapter.acquireMigrationLock(connection, options)
        const start = performance.now()
        await sql`SELECT sleep(0.1)`.execute(connection)
        spans.push([start, performance.now()])
        await adapter.releaseMigrationLock(connection, options)
      }),
    ),
  )
  spans.sort((a, b) => a[0] - b[0])
  expect(spans).toHaveLength(runners.length)
  for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1])
}
