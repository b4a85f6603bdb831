import type { Client } from '@clickwire/client'
import type { Work } from './scenario-queries.js'

/** The server's own count of the bytes it sent and received on its sockets (TCP and HTTP). */
export interface TrafficCounters {
  readonly sentBytes: number
  readonly receivedBytes: number
}

/**
 * The server's `NetworkSendBytes` and `NetworkReceiveBytes` profile events, or undefined
 * where it has none (18.16 counts the time spent sending, not the bytes).
 */
export async function readTraffic(client: Client): Promise<TrafficCounters | undefined> {
  const rows = await (
    await client.query(
      "SELECT event, value FROM system.events WHERE event IN ('NetworkSendBytes', 'NetworkReceiveBytes')",
    )
  ).arrays()
  const values = new Map(rows.map(([event, value]) => [String(event), Number(value)]))
  const sentBytes = values.get('NetworkSendBytes')
  if (sentBytes === undefined) return undefined
  return { sentBytes, receivedBytes: values.get('NetworkReceiveBytes') ?? 0 }
}

/**
 * Fewest bytes a run of `rows` rows moves, in any format with any compression: one per
 * 8 rows. It is far below any real transfer (LZ4 of ch-bench's consecutive UInt64s keeps
 * well over a byte a row) and far above a result the server discarded itself, which sends
 * a few kilobytes of progress and profile packets whatever the row count.
 */
export function minimumTransferBytes(rows: number): number {
  return Math.ceil(rows / 8)
}

/**
 * Why a run cannot have moved its rows, from the server's counters around it, or
 * undefined when it can have: a read must have made the server send at least
 * {@link minimumTransferBytes}, an insert receive them. Other traffic only adds to the
 * counters, so the check can miss a run that moved nothing but never fails a real one.
 */
export function transferShortfall(
  work: Work,
  rows: number,
  before: TrafficCounters,
  after: TrafficCounters,
): string | undefined {
  const insert = work === 'insert'
  const moved = insert ? after.receivedBytes - before.receivedBytes : after.sentBytes - before.sentBytes
  const minimum = minimumTransferBytes(rows)
  if (moved >= minimum) return undefined
  return `the server ${insert ? 'received' : 'sent'} ${moved} bytes for ${rows} rows (at least ${minimum} expected): the rows did not travel`
}
