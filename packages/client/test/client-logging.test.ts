// The client's log (`logger`, `logLevel`): the exact entries of a query, an insert, a failed
// query, a retry and a failover, the same on both transports, and levels that drop what is below
// them. That no entry ever holds a secret is apps/reliability's logger-secrets.test.ts.
import { FaultProxy } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { createClient, type LogContext, type Logger } from '../src/index.js'
import { clientFor, deadPort, endpointFor, server, transports, uniqueTable } from './support/transports.js'

const old = server.version.startsWith('18.')

interface Entry {
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
  readonly context: LogContext
}

/** A logger that keeps what it is told. */
function capturing(): Logger & { entries: Entry[] } {
  const entries: Entry[] = []
  const keep = (level: Entry['level']) => (message: string, context: LogContext) =>
    entries.push({ level, message, context })
  return { entries, debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') }
}

describe.each(transports)('%s', (transport) => {
  const scheme = transport === 'native' ? 'clickhouse' : 'http'
  const url = `${scheme}://default@${endpointFor(transport)}`

  it('logs a query from start to end with its id, and the client opened and closed', async () => {
    const logger = capturing()
    const ch = clientFor(transport, { logger, logLevel: 'debug' })
    const queryId = `log-${transport}-${Date.now()}`
    const rs = await ch.query('SELECT 1 AS one', { queryId })
    expect(await rs.rows()).toEqual([{ one: 1 }])
    await ch.close()
    const elapsed = logger.entries[2]?.context.elapsedMs
    expect(elapsed).toBeTypeOf('number')
    expect(logger.entries).toEqual([
      { level: 'info', message: 'client created', context: { transport, url } },
      {
        level: 'debug',
        message: 'query started',
        context: { queryId, transport, operation: 'SELECT', query: 'SELECT 1 AS one' },
      },
      {
        level: 'debug',
        message: 'query finished',
        context: {
          queryId,
          transport,
          operation: 'SELECT',
          elapsedMs: elapsed,
          resultRows: 1,
          // 18.16's HTTP interface reports no progress (see query-summary.test.ts).
          readRows: transport === 'http' && old ? 0 : 1,
          writtenRows: 0,
        },
      },
      { level: 'info', message: 'client closed', context: { transport, url } },
    ])
  })

  it('logs an insert and a failed query; info drops the debug entries', async () => {
    const table = uniqueTable('logged')
    await using setup = clientFor(transport)
    await setup.command(`CREATE TABLE ${table} (x UInt8) ENGINE = Memory`)
    const logger = capturing()
    const ch = clientFor(transport, { logger, logLevel: 'debug' })
    try {
      const insertId = `log-insert-${transport}-${Date.now()}`
      await ch.insert(table, { x: new Uint8Array([1, 2, 3]) }, { queryId: insertId })
      const failedId = `log-failed-${transport}-${Date.now()}`
      await expect(ch.query('SELECT no_such_column', { queryId: failedId })).rejects.toThrow(/no_such_column/)
      const entries = logger.entries.filter((entry) => entry.context.queryId !== undefined)
      expect(entries.map(({ level, message }) => `${level} ${message}`)).toEqual([
        'debug insert started',
        'debug insert finished',
        'debug query started',
        'error query failed',
      ])
      expect(entries[0]?.context).toEqual({ queryId: insertId, transport, operation: 'INSERT', table })
      expect(entries[1]?.context).toMatchObject({ queryId: insertId, operation: 'INSERT', writtenRows: 3 })
      expect(entries[3]?.context).toMatchObject({
        queryId: failedId,
        transport,
        operation: 'SELECT',
        errorName: 'ClickHouseError',
        errorKind: 'CLICKHOUSE',
        errorCode: 47,
      })
      expect(String(entries[3]?.context.error)).toContain('no_such_column')
    } finally {
      await ch.close()
      await setup.command(`DROP TABLE ${table}`)
    }

    const quiet = capturing()
    const info = clientFor(transport, { logger: quiet, logLevel: 'info' })
    await (await info.query('SELECT 1')).rows()
    await expect(info.query('SELECT no_such_column')).rejects.toThrow()
    await info.close()
    expect(quiet.entries.map(({ level, message }) => `${level} ${message}`)).toEqual([
      'info client created',
      'error query failed',
      'info client closed',
    ])
  })

  it('logs a read sent again after its pooled connection was reset (retry)', async () => {
    const proxy = await FaultProxy.start(
      { host: server.host, port: transport === 'native' ? server.ports.tcp : server.ports.http },
      {},
      // The modern engine aborts on an RST from a connection it reads: its side gets a FIN.
      { resetServer: server.generation !== 'modern' },
    )
    const logger = capturing()
    const ch = createClient({ url: `${scheme}://127.0.0.1:${proxy.port}`, maxConnections: 1, logger })
    try {
      await (await ch.query('SELECT 1')).rows()
      proxy.resetNextRequest()
      const queryId = `log-retry-${transport}-${Date.now()}`
      expect(await (await ch.query('SELECT 2 AS two', { queryId })).rows()).toEqual([{ two: 2 }])
      const retries = logger.entries.filter((entry) => entry.message === 'query sent again')
      expect(retries).toHaveLength(1)
      expect(retries[0]).toMatchObject({
        level: 'info',
        context: { queryId, transport, operation: 'SELECT', attempt: 1 },
      })
      // Native retries on its ConnectionError, HTTP on the socket's failure (a reset).
      if (transport === 'native') expect(retries[0]?.context.errorName).toBe('ConnectionError')
      else expect(retries[0]?.context.errorCode).toMatch(/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/)
    } finally {
      await ch.close()
      await proxy.close()
    }
  })

  it('says nothing without a logger or with logLevel off', async () => {
    const logger = capturing()
    await using ch = clientFor(transport, { logger, logLevel: 'off' })
    await expect(ch.query('SELECT no_such_column')).rejects.toThrow()
    expect(logger.entries).toEqual([])
  })
})

describe('http', () => {
  it('logs a host it sets aside and moves on (failover)', async () => {
    const logger = capturing()
    const dead = await deadPort()
    await using ch = createClient({
      url: [`http://127.0.0.1:${dead}`, `http://${endpointFor('http')}`],
      logger,
      logLevel: 'warn',
    })
    expect(await (await ch.query('SELECT 2 AS two')).rows()).toEqual([{ two: 2 }])
    expect(logger.entries).toHaveLength(1)
    expect(logger.entries[0]).toMatchObject({
      level: 'warn',
      message: 'host unreachable, trying the next',
      context: { host: `127.0.0.1:${dead}`, errorName: 'ConnectionError', errorCode: 'ECONNREFUSED' },
    })
  })
})
