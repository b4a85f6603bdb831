import { readdirSync, readlinkSync } from 'node:fs'

/** What the process holds open: the kinds a leak shows up in. */
export interface ResourceCounts {
  /** Ref'ed TCP sockets (`TCPSocketWrap` in `process.getActiveResourcesInfo()`). */
  readonly tcpSockets: number
  /** Ref'ed TLS layers (`TLSWrap`). */
  readonly tlsSockets: number
  /** Ref'ed timers (`Timeout`). */
  readonly timers: number
  /**
   * Socket file descriptors of the process (Linux `/proc/self/fd`), ref'ed or not: a pooled
   * connection is unref'ed while idle and would be invisible to the counts above.
   */
  readonly socketFds: number
}

function socketFds(): number {
  let count = 0
  let names: string[]
  try {
    names = readdirSync('/proc/self/fd')
  } catch {
    return 0
  }
  for (const name of names) {
    try {
      if (readlinkSync(`/proc/self/fd/${name}`).startsWith('socket:')) count++
    } catch {
      // Closed between the listing and the lookup.
    }
  }
  return count
}

/** Counts what is open now. */
export function countResources(): ResourceCounts {
  let tcpSockets = 0
  let tlsSockets = 0
  let timers = 0
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind === 'TCPSocketWrap') tcpSockets++
    else if (kind === 'TLSWrap') tlsSockets++
    else if (kind === 'Timeout') timers++
  }
  return { tcpSockets, tlsSockets, timers, socketFds: socketFds() }
}

const kinds = ['tcpSockets', 'tlsSockets', 'timers', 'socketFds'] as const

/** The kinds of which more are open than in `baseline`, with both numbers. */
export function excess(baseline: ResourceCounts, now: ResourceCounts): string[] {
  return kinds
    .filter((kind) => now[kind] > baseline[kind])
    .map((kind) => `${kind} ${baseline[kind]} -> ${now[kind]}`)
}

/**
 * Waits until the process holds no more sockets and timers than at `baseline`, or until
 * `timeoutMs` passed, and returns what is still in excess ([] when everything closed).
 * Closing a socket takes a turn or two of the event loop (and a peer's FIN), so a leak is
 * only what outlives this grace period.
 */
export async function settledExcess(baseline: ResourceCounts, timeoutMs = 2000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const left = excess(baseline, countResources())
    if (left.length === 0 || Date.now() >= deadline) return left
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * Counts once the numbers stop moving (two samples 50 ms apart agree, at most `timeoutMs`):
 * a baseline taken while an earlier test's sockets are still closing would hide a leak.
 */
export async function stableResources(timeoutMs = 1000): Promise<ResourceCounts> {
  let last = countResources()
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    const now = countResources()
    if (kinds.every((kind) => now[kind] === last[kind])) return now
    last = now
  }
  return last
}
