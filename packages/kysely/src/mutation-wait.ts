import { AbortError, ClickHouseError, type Client, TimeoutError } from '@clickwire/client'
import type { MutationWaitOptions } from './clickhouse-dialect-config.js'

/** The table a mutation changes. */
export interface MutatedTable {
  readonly database?: string | undefined
  readonly name: string
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortError(signal.reason))
      return
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(new AbortError(signal?.reason))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Waits until `system.mutations` shows no unfinished mutation of the table. Works on every
 * server (`mutations_sync` came in 20.1); a mutation that reports a failure
 * (`latest_fail_reason`, which 18.16 does not have yet) ends the wait with that error at once.
 */
export async function waitForMutations(
  client: Client,
  table: MutatedTable,
  options: MutationWaitOptions = {},
  signal?: AbortSignal,
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 300_000
  let delay = options.pollMs ?? 25
  const deadline = Date.now() + timeoutMs
  const database = table.database === undefined ? 'currentDatabase()' : '{database:String}'
  const query = `SELECT * FROM system.mutations WHERE database = ${database} AND table = {table:String} AND is_done = 0`
  const params =
    table.database === undefined ? { table: table.name } : { database: table.database, table: table.name }
  for (;;) {
    const pending = await (await client.query<Record<string, unknown>>(query, { params, signal })).rows()
    if (pending.length === 0) return
    for (const mutation of pending) {
      const reason = mutation.latest_fail_reason
      if (typeof reason === 'string' && reason !== '') {
        throw (
          ClickHouseError.fromText(reason) ??
          new ClickHouseError({
            code: 0,
            type: 'DB::Exception',
            message: `mutation ${String(mutation.mutation_id)} of ${table.name} failed: ${reason}`,
          })
        )
      }
    }
    if (Date.now() >= deadline) {
      throw new TimeoutError(
        'mutation',
        timeoutMs,
        `${pending.length} mutation(s) of ${table.name} still running after ${timeoutMs} ms; they go on in the background (see system.mutations)`,
      )
    }
    await pause(delay, signal)
    delay = Math.min(delay * 2, 1000)
  }
}
