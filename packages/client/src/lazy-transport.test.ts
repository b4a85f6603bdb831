import type { Transport } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { lazyTransport } from './lazy-transport.js'

/** A transport that records its calls; only what these tests call does anything. */
function recording(kind: Transport['kind']): { transport: Transport; calls: string[] } {
  const calls: string[] = []
  const transport = {
    kind,
    query: async (sql: string) => {
      calls.push(`query ${sql}`)
      return 'blocks'
    },
    insert: async (table: string) => {
      calls.push(`insert ${table}`)
      return 'inserted'
    },
    command: async (sql: string) => {
      calls.push(`command ${sql}`)
      return { queryId: 'q', progress: {} }
    },
    ping: async () => {
      calls.push('ping')
    },
    serverInfo: async () => {
      calls.push('serverInfo')
      return 'info'
    },
    close: async () => {
      calls.push('close')
    },
    ...(kind === 'http'
      ? {
          queryRaw: async (sql: string) => {
            calls.push(`queryRaw ${sql}`)
            return 'raw'
          },
          insertRaw: async (table: string) => {
            calls.push(`insertRaw ${table}`)
            return 'rawInserted'
          },
        }
      : {}),
  } as unknown as Transport
  return { transport, calls }
}

describe('lazyTransport', () => {
  it('starts the load at once and forwards every call to the loaded transport', async () => {
    const { transport, calls } = recording('http')
    let loads = 0
    const lazy = lazyTransport('http', async () => {
      loads++
      return transport
    })
    expect(loads).toBe(1)
    expect(lazy.kind).toBe('http')
    expect(await lazy.query('SELECT 1')).toBe('blocks')
    expect(await lazy.insert('t', (async function* () {})() as never)).toBe('inserted')
    expect(await lazy.command('DROP TABLE x')).toEqual({ queryId: 'q', progress: {} })
    await lazy.ping()
    expect(await lazy.serverInfo()).toBe('info')
    expect(await lazy.queryRaw?.('SELECT 2', { format: 'CSV' })).toBe('raw')
    expect(await lazy.insertRaw?.('t', 'a,b', { format: 'CSV' })).toBe('rawInserted')
    await lazy.close()
    expect(loads).toBe(1)
    expect(calls).toEqual([
      'query SELECT 1',
      'insert t',
      'command DROP TABLE x',
      'ping',
      'serverInfo',
      'queryRaw SELECT 2',
      'insertRaw t',
      'close',
    ])
  })

  it('has raw-format calls over HTTP only, before anything has loaded', () => {
    const never = () => new Promise<Transport>(() => {})
    const native = lazyTransport('native', never)
    const http = lazyTransport('http', never)
    expect([native.queryRaw, native.insertRaw]).toEqual([undefined, undefined])
    expect([typeof http.queryRaw, typeof http.insertRaw]).toEqual(['function', 'function'])
  })

  it('fails each call with the error of a load that failed, and closes without one', async () => {
    const failure = new Error('module failed to load')
    const lazy = lazyTransport('native', async () => {
      throw failure
    })
    await expect(lazy.query('SELECT 1')).rejects.toBe(failure)
    await expect(lazy.ping()).rejects.toBe(failure)
    await expect(lazy.close()).resolves.toBeUndefined()
  })

  it('waits for a load still under way before it closes the transport', async () => {
    const { transport, calls } = recording('native')
    let finish!: (loaded: Transport) => void
    const lazy = lazyTransport('native', () => new Promise((resolve) => (finish = resolve)))
    let closed = false
    const closing = lazy.close().then(() => {
      closed = true
    })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(closed).toBe(false)
    finish(transport)
    await closing
    expect(calls).toEqual(['close'])
  })
})
