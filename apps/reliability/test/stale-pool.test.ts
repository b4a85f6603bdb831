// A server restart (or a load balancer) resets every pooled connection at once; the next
// read-only query must not fail for it, on either transport: each pooled connection may be
// dead, so a client must be ready to find that out once per pooled connection.
import { afterAll, expect, inject, it } from 'vitest'
import { installProcessGuard } from '../src/guards/process-guard.js'
import { countResources, settledExcess } from '../src/guards/resource-census.js'
import { proxiedClient, transports } from './support/proxied-client.js'

const server = inject('clickhouse')
const guard = installProcessGuard()
afterAll(() => guard.dispose())

for (const transport of transports) {
  it(`${transport}: a read-only query right after every pooled connection was reset succeeds`, async () => {
    const baseline = countResources()
    const { proxy, client, close } = await proxiedClient(server, transport, {}, { maxConnections: 4 })
    try {
      // Fill the pool: four queries at once leave four connections kept alive.
      const sleepy = 'SELECT sleepEachRow(0.05) FROM system.numbers LIMIT 2 SETTINGS max_block_size = 1'
      await Promise.all(Array.from({ length: 4 }, async () => (await client.query(sleepy)).rows()))
      expect(proxy.open).toBe(4)
      proxy.resetAll()
      // No pause: the client learns of the resets only when it uses the connections.
      const rows = await (await client.query('SELECT 42 AS answer')).rows()
      expect(rows).toEqual([{ answer: 42 }])
      expect(guard.events).toEqual([])
    } finally {
      await close()
    }
    expect(await settledExcess(baseline)).toEqual([])
  })
}
