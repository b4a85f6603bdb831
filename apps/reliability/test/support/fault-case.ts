import type { Client, ClientOptions } from '@clickwire/client'
import type { Direction, Fault, ServerInfo } from '@clickwire/testing'
import type { ProcessGuard } from '../../src/guards/process-guard.js'
import { countResources, settledExcess } from '../../src/guards/resource-census.js'
import { everythingAbout } from '../../src/guards/secret-scan.js'
import { describeError, type TypedErrorName, typedErrorName } from '../../src/guards/typed-errors.js'
import { proxiedClient, type TransportName } from './proxied-client.js'

/** What one fault case came to: each field is something the tests assert on. */
export interface FaultCaseReport {
  readonly transport: TransportName
  readonly fault: Fault
  /** How the operation ended: `success`, or the error class (`untyped` for anything else). */
  readonly outcome: 'success' | TypedErrorName | 'untyped'
  readonly error: unknown
  /** From the call to its settling. */
  readonly elapsedMs: number
  /** The success value failed its check (wrong rows): the message, else undefined. */
  readonly wrongResult: string | undefined
  /** After the fault was removed: whether every recovery query returned the right answer, else why not. */
  readonly recovery: string | undefined
  /** Connections open through the proxy after recovery (the pool's size, seen from outside). */
  readonly openAfterRecovery: number
  /** Connections the recovery queries opened. */
  readonly connectionsForRecovery: number
  /** Sockets, timers and fds still in excess after the client and the proxy closed. */
  readonly leaks: readonly string[]
  /** Unhandled rejections / uncaught exceptions while the case ran. */
  readonly unhandled: readonly string[]
  /** Whether the password showed up anywhere in the error. */
  readonly secretLeaked: boolean
  /** Bytes the proxy forwarded, per direction. */
  readonly forwarded: { readonly toServer: number; readonly toClient: number }
}

export interface FaultCaseOptions<T> {
  readonly server: ServerInfo
  readonly transport: TransportName
  readonly fault: Fault
  readonly guard: ProcessGuard
  readonly clientOptions: Omit<ClientOptions, 'url'>
  /** The operation under the fault. */
  readonly run: (client: Client) => Promise<T>
  /** Checks a successful result; returns a message when it is wrong. */
  readonly check: (value: T) => string | undefined
  /** How many queries must work after the fault is gone. */
  readonly recoveryQueries?: number
  /** Grace for sockets and timers to close after everything was closed. */
  readonly settleMs?: number
  /**
   * `cold`: the fault is there from the first connection (handshakes and server detection
   * meet it too). `warm`: the client has already worked; the network then fails (its
   * pooled connections are reset) and the fault hits the connections it opens next.
   */
  readonly mode?: 'cold' | 'warm'
}

/**
 * The time limits of a clean measuring run and of the recovery queries. It runs in a file's setup, where a tight
 * deadline fails the whole file on a loaded machine; and no time limit reaches the wire
 * (the client sends no setting made from it), so the bytes measured are the cases' own.
 */
const measuringTimeoutMs = 60_000

/**
 * One query the pool must answer correctly once the network is healthy again. Its own limit
 * is generous: the case's short requestTimeoutMs is the fault's test, and on a loaded
 * machine reconnecting and answering can take longer than it without anything being wrong
 * (a pool that does not recover still fails, within this limit).
 */
async function recoveryQuery(client: Client, index: number): Promise<string | undefined> {
  const rs = await client.query(
    `SELECT ${index} AS i, count() AS c FROM (SELECT number FROM system.numbers LIMIT 1000)`,
    { timeoutMs: measuringTimeoutMs },
  )
  const rows = await rs.arrays()
  const [i, c] = rows[0] ?? []
  return rows.length === 1 && Number(i) === index && BigInt(c as bigint) === 1000n
    ? undefined
    : `recovery query ${index} answered ${JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}`
}

/**
 * Runs one operation through a FaultProxy with `fault` set, then removes the fault (and
 * the connections opened under it: the network came back, the old connections are dead),
 * checks that the same client works again, closes everything and counts what is left.
 */
export async function runFaultCase<T>(options: FaultCaseOptions<T>): Promise<FaultCaseReport> {
  const { server, transport, fault, guard } = options
  guard.clear()
  const baseline = countResources()
  const warm = options.mode === 'warm'
  const proxied = await proxiedClient(server, transport, warm ? {} : fault, options.clientOptions)
  const { proxy, client } = proxied
  if (warm) {
    await (await client.query('SELECT 1')).rows()
    proxy.setFault(fault)
    proxy.resetAll()
    // Let the resets reach the client's idle sockets.
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  let outcome: FaultCaseReport['outcome'] = 'success'
  let error: unknown
  let wrongResult: string | undefined
  const started = performance.now()
  let elapsedMs = 0
  let recovery: string | undefined
  let openAfterRecovery = 0
  let connectionsForRecovery = 0
  let forwarded = { toServer: 0, toClient: 0 }
  try {
    try {
      const value = await options.run(client)
      elapsedMs = performance.now() - started
      wrongResult = options.check(value)
    } catch (caught) {
      elapsedMs = performance.now() - started
      error = caught
      outcome = typedErrorName(caught) ?? 'untyped'
    }
    forwarded = { ...proxy.forwarded }
    proxy.setFault({})
    proxy.resetAll()
    const acceptedBefore = proxy.accepted
    try {
      for (let index = 0; index < (options.recoveryQueries ?? 3); index++) {
        recovery ??= await recoveryQuery(client, index)
      }
    } catch (caught) {
      recovery = `recovery failed: ${describeError(caught)}`
    }
    openAfterRecovery = proxy.open
    connectionsForRecovery = proxy.accepted - acceptedBefore
  } finally {
    await proxied.close()
  }
  // Generous: a loaded machine closes sockets and clears timers late (a quiet one at once).
  const leaks = await settledExcess(baseline, options.settleMs ?? 10_000)
  return {
    transport,
    fault,
    outcome,
    error,
    elapsedMs,
    wrongResult,
    recovery,
    openAfterRecovery,
    connectionsForRecovery,
    leaks,
    unhandled: [...guard.events],
    secretLeaked: error !== undefined && everythingAbout(error).includes(server.users.password.password),
    forwarded,
  }
}

/** A one-line summary of a report, for assertion messages and the run log. */
export function summarize(report: FaultCaseReport): string {
  const what = report.outcome === 'success' ? 'success' : describeError(report.error)
  return `${report.transport} ${JSON.stringify(report.fault)} -> ${what} in ${Math.round(report.elapsedMs)} ms`
}

/**
 * Measures the bytes a clean run of `run` sends each way through a proxy (after a warm-up,
 * in `warm` mode), with `clientOptions` but generous time limits (see measuringTimeoutMs).
 */
export async function cleanTraffic(
  server: ServerInfo,
  transport: TransportName,
  clientOptions: Omit<ClientOptions, 'url'>,
  run: (client: Client) => Promise<unknown>,
  mode: 'cold' | 'warm',
): Promise<{ toServer: number; toClient: number }> {
  const proxied = await proxiedClient(
    server,
    transport,
    {},
    {
      ...clientOptions,
      requestTimeoutMs: measuringTimeoutMs,
      connectTimeoutMs: measuringTimeoutMs,
    },
  )
  try {
    if (mode === 'warm') {
      await (await proxied.client.query('SELECT 1')).rows()
      proxied.proxy.resetAll()
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const before = { ...proxied.proxy.forwarded }
    await run(proxied.client)
    return {
      toServer: proxied.proxy.forwarded.toServer - before.toServer,
      toClient: proxied.proxy.forwarded.toClient - before.toClient,
    }
  } finally {
    await proxied.close()
  }
}

/** The limits a fault case is judged by. */
export interface Survival {
  /** The client's requestTimeoutMs: every call must settle within it (plus `graceMs`). */
  readonly timeoutMs: number
  /** Scheduling slack on a loaded machine. */
  readonly graceMs: number
  readonly maxConnections: number
}

/**
 * What every fault case must show: a typed error or a correct success within the
 * timeout, no unhandled rejection, no leaked socket or timer, a pool that works again
 * within its size once the network is back, and no secret in the error.
 */
export function survivalFailures(report: FaultCaseReport, limits: Survival): string[] {
  const failures: string[] = []
  const allowed = ['success', 'ConnectionError', 'TimeoutError', 'ProtocolError', 'ClickHouseError']
  if (!allowed.includes(report.outcome)) failures.push(`outcome ${report.outcome}`)
  if (report.wrongResult) failures.push(`wrong result: ${report.wrongResult}`)
  if (report.elapsedMs > limits.timeoutMs + limits.graceMs)
    failures.push(`settled after ${Math.round(report.elapsedMs)} ms (timeout ${limits.timeoutMs} ms)`)
  if (report.recovery) failures.push(report.recovery)
  if (report.openAfterRecovery > limits.maxConnections)
    failures.push(
      `${report.openAfterRecovery} connections open after recovery (pool of ${limits.maxConnections})`,
    )
  if (report.connectionsForRecovery > limits.maxConnections)
    failures.push(
      `recovery opened ${report.connectionsForRecovery} connections (pool of ${limits.maxConnections})`,
    )
  if (report.leaks.length > 0) failures.push(`leaked after close: ${report.leaks.join(', ')}`)
  if (report.unhandled.length > 0) failures.push(`unhandled: ${report.unhandled.join('; ')}`)
  if (report.secretLeaked) failures.push('the password appears in the error')
  return failures
}

/** Counts of outcomes over many cases, for the run's figures. */
export function tallyOutcomes(reports: readonly FaultCaseReport[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const report of reports) counts[report.outcome] = (counts[report.outcome] ?? 0) + 1
  return counts
}

/**
 * The bytes of a native handshake each way (client Hello and addendum; server Hello),
 * measured with the proxy's tap on one connection: one ping, then a second one, whose
 * traffic is the ping's alone, so the handshake is the first minus the second.
 */
export async function nativeHandshake(server: ServerInfo): Promise<Readonly<Record<Direction, number>>> {
  const proxied = await proxiedClient(server, 'native', {}, { maxConnections: 1 })
  const seen = { toServer: 0, toClient: 0 }
  proxied.proxy.setTap((connection, direction, bytes) => {
    if (connection === 1) seen[direction] += bytes.length
  })
  try {
    await proxied.client.ping()
    const first = { ...seen }
    await proxied.client.ping()
    if (proxied.proxy.accepted !== 1) throw new Error('two pings took more than one connection')
    return {
      toServer: 2 * first.toServer - seen.toServer,
      toClient: 2 * first.toClient - seen.toClient,
    }
  } finally {
    await proxied.close()
  }
}

/**
 * Whether a fault breaks a connection before its native handshake is over: a byte offset
 * short of the client's Hello and addendum (toServer), or one that stops the server's Hello
 * from arriving whole before the client answers it (toClient, the end included: the client
 * sends its addendum only once it has the whole Hello). Only these kill the modern engine.
 */
export function landsInHandshake(fault: Fault, handshake: Readonly<Record<Direction, number>>): boolean {
  for (const limit of [fault.cutAfter, fault.resetAfter, fault.stallAfter]) {
    if (limit === undefined) continue
    if (limit.direction === 'toServer' ? limit.bytes < handshake.toServer : limit.bytes <= handshake.toClient)
      return true
  }
  return false
}
