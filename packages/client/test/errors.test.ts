// Every failure reaches the caller as one of the branded error classes the client exports,
// the same on both transports.
import { FaultProxy } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AbortError,
  ClickHouseError,
  ClickwireError,
  ConnectionError,
  createClient,
  ProtocolError,
  TimeoutError,
  UsageError,
} from '../src/index.js'
import { clientFor, deadPort, server, thrown, transports } from './support/transports.js'

/** Runs `run` and returns what it threw (failing the test if it did not throw). */
const proxies: Partial<Record<'native' | 'http', FaultProxy>> = {}

beforeAll(async () => {
  proxies.native = await FaultProxy.start({ host: server.host, port: server.ports.tcp })
  proxies.http = await FaultProxy.start({ host: server.host, port: server.ports.http })
})

afterAll(async () => {
  await proxies.native?.close()
  await proxies.http?.close()
})

describe.each(transports)('%s', (transport) => {
  const scheme = transport === 'native' ? 'clickhouse' : 'http'

  it('reports a server error as ClickHouseError with code and codeName, and goes on', async () => {
    await using ch = clientFor(transport)
    const error = await thrown(() => ch.query('SELECT * FROM no_such_table_anywhere'))
    expect(ClickHouseError.isInstance(error)).toBe(true)
    expect(error).toBeInstanceOf(ClickHouseError)
    expect(error).toBeInstanceOf(ClickwireError)
    expect(error).toMatchObject({ code: 60, codeName: 'UNKNOWN_TABLE', kind: 'CLICKHOUSE' })
    expect((error as ClickHouseError).message).toContain('no_such_table_anywhere')
    expect(await (await ch.query('SELECT 1 AS ok')).rows()).toEqual([{ ok: 1 }])
  })

  it('reports a syntax error as ClickHouseError 62 SYNTAX_ERROR', async () => {
    await using ch = clientFor(transport)
    const error = await thrown(() => ch.query('SELEC 1'))
    expect(error).toBeInstanceOf(ClickHouseError)
    expect(error).toMatchObject({ code: 62, codeName: 'SYNTAX_ERROR' })
    // The server failed before reading the rest of the request: the connection must not be
    // reused out of step.
    expect(await (await ch.query('SELECT 2 AS ok')).rows()).toEqual([{ ok: 2 }])
  })

  it('raises a server error that comes before the first block, with the query id', async () => {
    await using ch = clientFor(transport)
    const queryId = `throw-early-${transport}-${Date.now()}`
    const error = await thrown(async () =>
      (await ch.query('SELECT throwIf(number = 3) AS x FROM system.numbers LIMIT 10', { queryId })).rows(),
    )
    expect(error).toBeInstanceOf(ClickHouseError)
    expect(error).toMatchObject({ code: 395, codeName: 'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO', queryId })
  })

  it('raises a server error that comes after rows were streamed, never ending like a complete result', async () => {
    await using ch = clientFor(transport)
    // About 8 MB before the error: past every buffer, so rows reach the consumer first.
    const rs = await ch.query(
      'SELECT throwIf(number = 600000) AS x, toString(number) AS s, number AS n FROM system.numbers LIMIT 1000000',
      { settings: { max_block_size: 10_000 } },
    )
    let seen = 0
    const error = await thrown(async () => {
      for await (const _ of rs) seen++
    })
    expect(error).toBeInstanceOf(ClickHouseError)
    expect(error).toMatchObject({ code: 395, queryId: rs.queryId })
    expect(seen).toBeGreaterThan(0)
    expect(seen).toBeLessThanOrEqual(600_000)
  })

  it('reports a host nothing listens on as ConnectionError', async () => {
    await using ch = createClient(`${scheme}://127.0.0.1:${await deadPort()}`)
    const error = await thrown(() => ch.query('SELECT 1'))
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).toMatchObject({ code: 'ECONNREFUSED', kind: 'CONNECTION' })
  })

  it('reports a connection cut in the middle of a result as ConnectionError, never as a shorter result', async () => {
    const proxy = proxies[transport]!
    proxy.setFault({ cutAfter: { direction: 'toClient', bytes: 200_000 } })
    try {
      await using ch = createClient(`${scheme}://127.0.0.1:${proxy.port}/?compression=none`)
      const error = await thrown(async () => {
        const rs = await ch.query('SELECT number, toString(number) AS s FROM system.numbers LIMIT 1000000', {
          settings: { max_block_size: 10_000 },
        })
        await rs.rows()
      })
      expect(error).toBeInstanceOf(ConnectionError)
    } finally {
      proxy.setFault({})
    }
  })

  it('reports a query over its time limit as TimeoutError', async () => {
    await using ch = clientFor(transport)
    const error = await thrown(async () => (await ch.query('SELECT sleep(2)', { timeoutMs: 200 })).rows())
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toMatchObject({ kind: 'TIMEOUT', timeoutMs: 200 })
  })

  it('reports the client-wide request timeout as TimeoutError too', async () => {
    await using ch = clientFor(transport, { requestTimeoutMs: 200 })
    const error = await thrown(async () => (await ch.query('SELECT sleep(2)')).rows())
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toMatchObject({ timeoutMs: 200 })
  })

  it('reports misuse as UsageError', async () => {
    expect(() => createClient('mysql://127.0.0.1')).toThrow(UsageError)
    expect(() => createClient({ url: 'http://127.0.0.1', max_threads: 1 } as never)).toThrow(
      /ClickHouse settings go in `settings`/,
    )
    const ch = clientFor(transport)
    await ch.close()
    await expect(ch.query('SELECT 1')).rejects.toBeInstanceOf(UsageError)
  })

  it('exports one hierarchy: every class is a ClickwireError with its own kind', () => {
    const errors = [
      new ClickHouseError({ code: 60, type: 'DB::Exception', message: 'x' }),
      new ProtocolError('x'),
      new ConnectionError('x'),
      new TimeoutError('query', 1),
      new AbortError(),
      new UsageError('x'),
    ]
    expect(errors.map((error) => [error instanceof ClickwireError, error.kind, error.name])).toEqual([
      [true, 'CLICKHOUSE', 'ClickHouseError'],
      [true, 'PROTOCOL', 'ProtocolError'],
      [true, 'CONNECTION', 'ConnectionError'],
      [true, 'TIMEOUT', 'TimeoutError'],
      [true, 'ABORT', 'AbortError'],
      [true, 'USAGE', 'UsageError'],
    ])
  })
})
