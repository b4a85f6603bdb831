// The limits a caller sets must hold however the network fails: the request timeout bounds
// the whole call (connecting included), and closing a client releases its sockets and
// timers at once, also while a timed-out query still waits for a server that went silent.
import { TimeoutError } from '@clickwire/protocol'
import { modernHandshakeAbort } from '@clickwire/testing'
import { afterAll, expect, inject, it } from 'vitest'
import { installProcessGuard } from '../src/guards/process-guard.js'
import { countResources, type ResourceCounts, stableResources } from '../src/guards/resource-census.js'
import { describeError } from '../src/guards/typed-errors.js'
import { proxiedClient, transports } from './support/proxied-client.js'

const server = inject('clickhouse')
const guard = installProcessGuard()
afterAll(() => guard.dispose())
/**
 * How long past its limit a call may settle, and close() may take to free the sockets:
 * generous, for a loaded machine runs every timer and teardown late (a hang still fails).
 */
const graceMs = 5000

/** Client-side sockets still open: the process's socket fds minus the proxy's own and its listener. */
function clientSockets(baseline: ResourceCounts, proxySockets: number): number {
  return countResources().socketFds - baseline.socketFds - 1 - proxySockets
}

for (const transport of transports) {
  // The server's Hello never reaches the client: on native, the handshake fails.
  const inHandshake = transport === 'native' && server.generation === 'modern'
  const connecting = `${transport}: the request timeout also bounds connecting to a server that never answers`
  it.skipIf(inHandshake)(
    inHandshake ? `${connecting} (skipped on modern: ${modernHandshakeAbort})` : connecting,
    async () => {
      const { client, close } = await proxiedClient(
        server,
        transport,
        { stallAfter: { direction: 'toClient', bytes: 0 } },
        { requestTimeoutMs: 800, connectTimeoutMs: 5000 },
      )
      try {
        const started = performance.now()
        const error = await client.query('SELECT 1').then(
          () => undefined,
          (caught: unknown) => caught,
        )
        const elapsed = performance.now() - started
        expect(TimeoutError.isInstance(error), describeError(error)).toBe(true)
        expect(elapsed, describeError(error)).toBeLessThan(800 + graceMs)
        expect(guard.events).toEqual([])
      } finally {
        await close()
      }
    },
  )

  it(`${transport}: closing the client frees a connection stuck behind a timed-out query at once`, async () => {
    const baseline = await stableResources()
    const { proxy, client, close } = await proxiedClient(server, transport, {}, { requestTimeoutMs: 800 })
    try {
      // The warm-up has a generous limit of its own: on a loaded machine connecting alone can
      // take longer than the 800 ms the case is about.
      await (await client.query('SELECT 1', { timeoutMs: 30_000 })).rows()
      // The network goes silent in the middle of the next result.
      proxy.setFault({ stallAfter: { direction: 'toClient', bytes: 3000 } })
      proxy.resetAll()
      await new Promise((resolve) => setTimeout(resolve, 20))
      const error = await client
        .query('SELECT number, toString(number) FROM system.numbers LIMIT 100000')
        .then((result) => result.rows())
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      expect(TimeoutError.isInstance(error), describeError(error)).toBe(true)
      await client.close()
      // The proxy keeps its side of the stalled connection open: only the client's must go.
      let left = clientSockets(baseline, proxy.openSockets)
      for (let waited = 0; waited < graceMs && left > 0; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        left = clientSockets(baseline, proxy.openSockets)
      }
      expect(left, 'client sockets still open after close()').toBe(0)
      expect(countResources().timers, 'timers still pending after close()').toBeLessThanOrEqual(
        baseline.timers,
      )
      expect(guard.events).toEqual([])
    } finally {
      await close()
    }
  })
}
