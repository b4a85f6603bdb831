import { describe, expect, it } from 'vitest'
import { sql } from '../src/index.js'
import { clientFor, transports } from './support/transports.js'

describe.each(transports)('%s', (transport) => {
  it('queries rows, columns and arrow', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query<{ n: bigint; s: string }>(
      sql`SELECT number AS n, toString(number) AS s FROM system.numbers LIMIT ${3}`,
    )
    expect(rs.meta.map((m) => [m.name, m.type])).toEqual([
      ['n', 'UInt64'],
      ['s', 'String'],
    ])
    expect(await rs.rows()).toEqual([
      { n: 0n, s: '0' },
      { n: 1n, s: '1' },
      { n: 2n, s: '2' },
    ])
    const columns = await (
      await ch.query('SELECT toUInt8(number) AS x FROM system.numbers LIMIT 4')
    ).columns()
    expect(columns.x).toEqual(new Uint8Array([0, 1, 2, 3]))
    const table = await (
      await ch.query('SELECT toInt32(number) AS x, toString(number) AS s FROM system.numbers LIMIT 4')
    ).arrow()
    expect(table.numRows).toBe(4)
    expect(table.getChild('x')?.toArray()).toEqual(new Int32Array([0, 1, 2, 3]))
    expect(table.getChild('s')?.toArray()).toEqual(['0', '1', '2', '3'])
  })

  it('inserts rows and reads them back', async () => {
    await using ch = clientFor(transport)
    const table = `smoke_${transport}`
    await ch.command(`DROP TABLE IF EXISTS ${table}`)
    await ch.command(`CREATE TABLE ${table} (id UInt32, name String) ENGINE = Memory`)
    const result = await ch.insert(table, [
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ])
    expect(result.rowsWritten).toBe(2)
    expect(await (await ch.query(`SELECT * FROM ${table} ORDER BY id`)).rows()).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ])
  })
})
