/** How long without a request before the next one first lets the event loop turn. */
const quietMs = 500

/**
 * Holds a request back for one turn of the event loop after a quiet stretch, so that a
 * server's close of an idle kept-alive socket is read, and the client's idle-socket timer
 * has fired, before a socket is picked. A long synchronous stretch (decoding a large result)
 * holds both back: the request would go out on a socket the server has closed ("other side
 * closed"), and only a read-only request may be sent again after that, not an insert or a
 * DDL. Busy callers (a request within the last half second) never wait: nothing blocked.
 */
export function sendGate(): () => Promise<void> | undefined {
  let lastSend = Number.NEGATIVE_INFINITY
  return () => {
    const quiet = performance.now() - lastSend > quietMs
    lastSend = performance.now()
    return quiet ? loopTurn() : undefined
  }
}

/**
 * Resolves after a whole turn of the event loop: the timers that are due have run (the idle
 * socket timer among them) and then the poll phase has read the I/O that arrived.
 */
const loopTurn = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(() => setImmediate(resolve), 0)
  })
