// The name of a server error's code: modern servers print it in their message, 18.16 does
// not, so there it comes from clickwire's table. The server's own answer is the oracle.
import { ClickHouseError } from '@clickwire/protocol'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createHttpTransport } from '../src/index-node.js'

const server = inject('clickhouse')
const modern = server.generation === 'modern'

describe('http: error code names', () => {
  const http = createHttpTransport({ url: server.httpUrl })
  afterAll(() => http.close())

  // 26.x keeps a temporary table for the one request instead: 113 is 18.16's answer only.
  it.skipIf(modern)(
    'names 113 THERE_IS_NO_SESSION (18.16), a temporary table asked for without a session',
    async () => {
      const error = await http.command('CREATE TEMPORARY TABLE no_session_here (x UInt8)').then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(ClickHouseError.isInstance(error), String(error)).toBe(true)
      expect((error as ClickHouseError).code).toBe(113)
      expect((error as ClickHouseError).codeName).toBe('THERE_IS_NO_SESSION')
    },
  )

  it('names 372 SESSION_NOT_FOUND, a session checked that the server never opened', async () => {
    const checked = createHttpTransport({
      url: server.httpUrl,
      sessionId: `never-opened-${Date.now()}`,
      sessionCheck: true,
    })
    const error = await checked.command('SELECT 1').then(
      () => undefined,
      (caught: unknown) => caught,
    )
    await checked.close()
    expect(ClickHouseError.isInstance(error), String(error)).toBe(true)
    expect((error as ClickHouseError).code).toBe(372)
    expect((error as ClickHouseError).codeName).toBe('SESSION_NOT_FOUND')
  })
})
