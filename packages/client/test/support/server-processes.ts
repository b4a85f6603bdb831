// What the server runs now, read from system.processes over a client of its own: the oracle
// of every test that stops a query. Waits are bounded by time, not by a count of polls, so
// a loaded machine (slow polls) gets the same bound as a quiet one.

import { modernKeeperQueryId } from '@clickwire/testing'
import type { Client } from '../../src/index.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How many queries with id `queryId` the server runs now (the modern harness's keeper excluded). */
async function countRunning(observer: Client, queryId: string): Promise<bigint> {
  // Query ids in the tests are plain ASCII, so a literal needs no escaping.
  const rs = await observer.query(
    `SELECT count() AS n FROM system.processes WHERE query_id = '${queryId}' AND query_id != '${modernKeeperQueryId}'`,
  )
  return ((await rs.rows())[0]?.n as bigint | undefined) ?? 0n
}

/** Whether the server runs `queryId` now. */
export async function runsNow(observer: Client, queryId: string): Promise<boolean> {
  return (await countRunning(observer, queryId)) === 1n
}

/** Resolves once the server runs `queryId`; rejects after `limitMs` (20 s unless given). */
export async function waitRunning(observer: Client, queryId: string, limitMs = 20_000): Promise<void> {
  for (const until = Date.now() + limitMs; Date.now() < until; await sleep(25)) {
    if (await runsNow(observer, queryId)) return
  }
  throw new Error(`query ${queryId} never showed up in system.processes within ${limitMs} ms`)
}

/** Milliseconds until the server no longer runs `queryId`; -1 if it still does after `limitMs`. */
export async function goneWithin(observer: Client, queryId: string, limitMs: number): Promise<number> {
  const started = Date.now()
  for (; Date.now() - started < limitMs; await sleep(50)) {
    if ((await countRunning(observer, queryId)) === 0n) return Date.now() - started
  }
  return -1
}
