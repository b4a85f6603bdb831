import type { Transport } from '@clickwire/protocol'

/**
 * A transport whose module loads when the client is created, not when `@clickwire/client`
 * is imported: a process that speaks native TCP never loads the HTTP package (nor node:zlib),
 * and one that speaks HTTP never loads the native one (nor node:net, node:tls), so a cold
 * start (serverless, a CLI) compiles only the code it runs.
 *
 * The load starts at once; each call waits for it, and a load that fails fails the calls
 * with its error. `close()` before the load ended waits for it, then closes.
 */
export function lazyTransport(kind: Transport['kind'], load: () => Promise<Transport>): Transport {
  const ready = load()
  // A client closed unused, or never used, must not leave an unhandled rejection behind.
  ready.catch(() => {})
  const transport: Transport = {
    kind,
    query: async (sql, options) => (await ready).query(sql, options),
    insert: async (table, producer, options) => (await ready).insert(table, producer, options),
    command: async (sql, options) => (await ready).command(sql, options),
    ping: async (options) => (await ready).ping(options),
    serverInfo: async () => (await ready).serverInfo(),
    async close() {
      let loaded: Transport
      try {
        loaded = await ready
      } catch {
        return
      }
      await loaded.close()
    },
  }
  // Raw formats exist where the protocol carries them (HTTP): the client tells which by
  // whether the calls are there, before anything has loaded.
  if (kind === 'http') {
    return Object.assign(transport, {
      queryRaw: async (...args: Parameters<NonNullable<Transport['queryRaw']>>) =>
        required(await ready, 'queryRaw')(...args),
      insertRaw: async (...args: Parameters<NonNullable<Transport['insertRaw']>>) =>
        required(await ready, 'insertRaw')(...args),
    })
  }
  return transport
}

function required<K extends 'queryRaw' | 'insertRaw'>(
  transport: Transport,
  call: K,
): NonNullable<Transport[K]> {
  const method = transport[call]
  if (!method) throw new TypeError(`the ${transport.kind} transport has no ${call}()`)
  return method.bind(transport) as NonNullable<Transport[K]>
}
