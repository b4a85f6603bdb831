import { ConnectionError, TimeoutError } from '@clickwire/protocol'

/**
 * What both socket channels (socket-channel.ts for Node, socket-channel-workerd.ts for
 * Workers) say and do alike: their errors, and the bookkeeping of writes that must fail when
 * the socket goes under them.
 */

/** The server closed the connection (`ECONNCLOSED` where a wait or a write was cut by it). */
export function closedError(address: string, code?: 'ECONNCLOSED'): ConnectionError {
  return new ConnectionError(`${address} closed the connection`, code ? { address, code } : { address })
}

/** Nothing arrived for the receive timeout. */
export function receiveTimeoutError(address: string, timeoutMs: number): TimeoutError {
  return new TimeoutError('idle', timeoutMs, `no data from ${address} for ${timeoutMs} ms (receive timeout)`)
}

/**
 * One write, settled once: by `start`'s own outcome (it calls `settle`), or failed by
 * `failAll()` on `pending` when the socket closes or fails first, since the runtime's write
 * callback (or `drain`) may then never come. `start` returns what to undo when it settles.
 */
export function trackedWrite(
  pending: Set<() => void>,
  address: string,
  failure: () => Error | undefined,
  start: (settle: (error?: Error) => void) => (() => void) | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false
    let undo: (() => void) | undefined
    const settle = (error?: Error) => {
      if (settled) return
      settled = true
      pending.delete(fail)
      undo?.()
      if (error) reject(error)
      else resolve()
    }
    const fail = () =>
      settle(
        failure() ??
          new ConnectionError(`${address} closed the connection while we were writing to it`, {
            address,
            code: 'ECONNCLOSED',
          }),
      )
    pending.add(fail)
    undo = start(settle)
    if (settled) undo?.()
  })
}

/** Fails every write still waiting: the socket closed or failed under it. */
export function failAll(pending: Set<() => void>): void {
  for (const fail of [...pending]) fail()
}
