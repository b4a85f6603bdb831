import { ClickHouseError, type Client } from '../../src/index.js'
import { clientFor } from './transports.js'

/** ClickHouse's UNKNOWN_TABLE: a system log table is created with its first flushed entry. */
const unknownTable = 60

/**
 * How long a log entry may take to show up. The server writes a query's entry after the
 * client already has its answer, queues it, and writes it out on SYSTEM FLUSH LOGS; on a
 * loaded machine each step runs late, so the wait is generous (the read returns as soon as
 * the entry is there, so a quiet machine does not pay for it).
 */
export const logWaitMs = 30_000

/**
 * Reads a system log table until `done` accepts what `read` gave, flushing the logs before
 * each read, for up to {@link logWaitMs}; then gives the last read, so the caller's exact
 * assertion fails with what was there. A log table that does not exist yet (the server
 * creates it with its first entry) is waited for like a missing entry. `absent` when the
 * table never appeared within the whole wait: the server keeps no such log (it is not in
 * its configuration), and the caller skips with that reason.
 */
export async function readLog<T>(
  read: (ch: Client) => Promise<T>,
  done: (value: T) => boolean,
): Promise<{ readonly value: T } | 'absent'> {
  await using ch = clientFor('native')
  const deadline = Date.now() + logWaitMs
  let last: { value: T } | undefined
  for (let pause = 50; ; pause = Math.min(pause * 2, 1000)) {
    await ch.command('SYSTEM FLUSH LOGS')
    try {
      last = { value: await read(ch) }
    } catch (error) {
      if (!(ClickHouseError.isInstance(error) && error.code === unknownTable)) throw error
    }
    if (last && done(last.value)) return last
    if (Date.now() >= deadline) return last ?? 'absent'
    await new Promise((resolve) => setTimeout(resolve, pause))
  }
}
