// A connection reused for many requests keeps the same listeners on its socket: nothing is
// added per request (Node warns past 10 of one event: MaxListenersExceededWarning).
import type { Socket } from 'node:net'
import { afterEach, expect, inject, it, vi } from 'vitest'
import { createNativeTransport } from '../src/index.js'
import { NativeConnection } from '../src/native-connection.js'
import { parseNativeUrl } from '../src/native-options.js'
import { collect } from './support/native-helpers.js'

const server = inject('clickhouse')
const { host, port } = parseNativeUrl(server.nativeUrl).hosts[0]!

afterEach(() => {
  vi.restoreAllMocks()
})

/** Every event of the socket with its listener count. */
function listenerCounts(socket: Socket): Record<string, number> {
  return Object.fromEntries(
    socket
      .eventNames()
      .map((event) => [String(event), socket.listenerCount(event)] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  )
}

it('leaves the socket listener counts flat over 50 sequential requests on one connection', async () => {
  const opened: NativeConnection[] = []
  const open = NativeConnection.open.bind(NativeConnection)
  vi.spyOn(NativeConnection, 'open').mockImplementation(async (...args) => {
    const connection = await open(...args)
    opened.push(connection)
    return connection
  })
  const native = createNativeTransport({ hosts: [{ host, port }], maxConnections: 1 })
  const warnings: Error[] = []
  const onWarning = (warning: Error) => warnings.push(warning)
  process.on('warning', onWarning)
  try {
    const controller = new AbortController()
    const table = `socket_listeners_${Date.now().toString(36)}`
    await native.command(`CREATE TABLE ${table} (n UInt32) ENGINE = Memory`)
    const request = async (index: number) => {
      // Queries with and without a signal and a time limit, a command, an insert and a
      // query with parameters and settings: each leaves the connection clean for the next.
      const kind = index % 6
      if (kind === 3) {
        await native.command(`SELECT ${index}`)
        return
      }
      if (kind === 4) {
        await native.insert(table, () => [{ rows: 1, columns: [[index]] }], { signal: controller.signal })
        return
      }
      if (kind === 5) {
        const stream = await native.query('SELECT {n:UInt32} AS i', {
          params: { n: index },
          settings: { max_threads: '1' },
        })
        expect((await collect(stream)).columns).toEqual([[index]])
        return
      }
      const stream = await native.query(`SELECT ${index} AS i`, {
        signal: kind === 1 ? controller.signal : undefined,
        timeoutMs: kind === 2 ? 60_000 : undefined,
      })
      expect((await collect(stream)).columns).toEqual([[index]])
    }
    await request(0)
    expect(opened).toHaveLength(1)
    const socket = (opened[0]!.channel as unknown as { socket: Socket }).socket
    const before = listenerCounts(socket)
    for (let index = 1; index <= 50; index++) await request(index)
    expect(opened).toHaveLength(1)
    expect(listenerCounts(socket)).toEqual(before)
    expect(Math.max(...Object.values(before))).toBeLessThanOrEqual(3)
    expect(warnings).toEqual([])
    await native.command(`DROP TABLE ${table}`)
  } finally {
    process.off('warning', onWarning)
    await native.close()
  }
})
