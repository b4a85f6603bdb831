// The drop-in does on the client some work the server does for @clickhouse/client: over native
// it converts JSON rows itself, and on both transports it checks placeholders before sending.
// These tests hold it to what the server does: a JSON number for DateTime64 read as the
// server reads it (ticks or seconds, by input_format_read_datetime_number_as_raw_value), and
// the server's error codes for a too long FixedString and a missing query parameter.
import { Readable } from 'node:stream'
import { UsageError } from '@clickwire/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseError, createClient } from '../src/compat/index.js'
import { serverRun } from './support/server-oracle.js'
import { server, thrown, transports, uniqueTable, urlFor } from './support/transports.js'

const legacy = server.generation === 'legacy'

/** The server's own reading of a JSONEachRow line into `type`, as text (the oracle). */
async function serverReads(type: string, line: string, settings: Record<string, string> = {}) {
  const quote = (text: string) => `'${text.replaceAll("'", "\\'")}'`
  const sql = `SELECT toString(d) FROM format(JSONEachRow, ${quote(`d ${type}`)}, ${quote(line)}) FORMAT TSV`
  return (await serverRun(sql, settings)).trimEnd()
}

/** The server's error text for `sql` over plain HTTP. */
async function serverError(sql: string): Promise<string> {
  const url = new URL(server.httpUrl)
  const response = await fetch(url, { method: 'POST', body: sql })
  expect(response.status).not.toBe(200)
  return response.text()
}

describe.each(transports)(
  'compat client over %s reads values and reports errors as the server',
  (transport) => {
    const client = createClient({ url: urlFor(transport) })
    afterAll(() => client.close())

    let hasRawSetting = false
    beforeAll(async () => {
      const found = await serverRun(
        "SELECT count() FROM system.settings WHERE name = 'input_format_read_datetime_number_as_raw_value' FORMAT TSV",
      )
      hasRawSetting = found.trim() === '1'
    })

    async function stored(table: string): Promise<string[]> {
      return (await serverRun(`SELECT toString(d) FROM ${table} ORDER BY n FORMAT TSV`)).trimEnd().split('\n')
    }

    // 18.16 has no DateTime64 (and no format() table function for the oracle).
    it.skipIf(legacy)(
      'a JSON integer for DateTime64 is stored as the server reads it by default',
      async () => {
        const table = uniqueTable('compat_dt64')
        await client.command({
          query: `CREATE TABLE ${table} (n UInt8, d DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY n`,
        })
        // Ticks before 26.8 and seconds after it: 1662328969 is a valid time either way.
        await client.insert({
          table,
          values: [
            { n: 1, d: 1662328969 },
            { n: 2, d: '2022-09-05 00:02:49.456' },
          ],
          format: 'JSONEachRow',
        })
        expect(await stored(table)).toEqual([
          await serverReads("DateTime64(3, 'UTC')", '{"d":1662328969}'),
          '2022-09-05 00:02:49.456',
        ])
        // The two readings differ, so this checks which one each generation applies.
        expect(await stored(table)).toEqual([
          hasRawSetting ? '2022-09-04 22:02:49.000' : '1970-01-20 05:45:28.969',
          '2022-09-05 00:02:49.456',
        ])
      },
    )

    it.skipIf(legacy)(
      'input_format_read_datetime_number_as_raw_value in clickhouse_settings is followed where the server has it',
      async (context) => {
        if (!hasRawSetting) context.skip()
        const table = uniqueTable('compat_dt64_raw')
        await client.command({
          query: `CREATE TABLE ${table} (n UInt8, d DateTime64(3, 'Asia/Istanbul')) ENGINE = MergeTree ORDER BY n`,
        })
        await client.insert({
          table,
          values: [{ n: 1, d: 1662328969123 }],
          format: 'JSONEachRow',
          clickhouse_settings: { input_format_read_datetime_number_as_raw_value: 1 },
        })
        const raw = await serverReads("DateTime64(3, 'Asia/Istanbul')", '{"d":1662328969123}', {
          input_format_read_datetime_number_as_raw_value: '1',
        })
        expect(raw).toBe('2022-09-05 01:02:49.123')
        expect(await stored(table)).toEqual([raw])
      },
    )

    it('with input_format_import_nested_json an object fills the flattened Nested columns, as the server reads it', async (context) => {
      const found = await serverRun(
        "SELECT count() FROM system.settings WHERE name = 'input_format_import_nested_json' FORMAT TSV",
      )
      if (found.trim() !== '1') context.skip()
      const columns = 'id UInt8, n Nested(id UInt32, name String)'
      const ours = uniqueTable('compat_nested')
      const theirs = uniqueTable('compat_nested_oracle')
      for (const name of [ours, theirs])
        await serverRun(`CREATE TABLE ${name} (${columns}) ENGINE = MergeTree ORDER BY id`)
      const rows = [
        { id: 1, n: { id: [42, 7], name: ['foo', 'é'] } },
        { id: 2, n: { id: [], name: [] } },
      ]
      await client.insert({
        table: ours,
        values: rows,
        format: 'JSONEachRow',
        clickhouse_settings: { input_format_import_nested_json: 1 },
      })
      await serverRun(
        `INSERT INTO ${theirs} FORMAT JSONEachRow ${rows.map((row) => JSON.stringify(row)).join('\n')}`,
        {
          input_format_import_nested_json: '1',
        },
      )
      const select = (name: string) =>
        serverRun(`SELECT id, n.id, n.name FROM ${name} ORDER BY id FORMAT TSV`)
      expect(await select(ours)).toBe(await select(theirs))
      expect(await select(ours)).toBe("1\t[42,7]\t['foo','é']\n2\t[]\t[]\n")
    })

    it('a Node stream of JSON bytes may cut a character between chunks', async () => {
      const table = uniqueTable('compat_stream_utf8')
      await client.command({
        query: `CREATE TABLE ${table} (id UInt8, s String) ENGINE = MergeTree ORDER BY id`,
      })
      const bytes = Buffer.from('{"id":1,"s":"é€𝄞"}\n{"id":2,"s":"ü"}\n')
      // Cuts inside é, inside € and inside 𝄞.
      const chunks = [
        bytes.subarray(0, 14),
        bytes.subarray(14, 17),
        bytes.subarray(17, 22),
        bytes.subarray(22),
      ]
      await client.insert({ table, values: Readable.from(chunks), format: 'JSONEachRow' })
      expect(await serverRun(`SELECT id, s FROM ${table} ORDER BY id FORMAT TSV`)).toBe('1\té€𝄞\n2\tü\n')
    })

    it('a FixedString value longer than its size is TOO_LARGE_STRING_SIZE, as the server says', async () => {
      const table = uniqueTable('compat_fs')
      await client.command({ query: `CREATE TABLE ${table} (fs FixedString(3)) ENGINE = Memory` })
      const error = await thrown(() =>
        client.insert({ table, values: [{ fs: 'foobar' }], format: 'JSONEachRow' }),
      )
      expect(error).toBeInstanceOf(ClickHouseError)
      expect((error as ClickHouseError).code).toBe('131')
      expect((error as ClickHouseError).type).toBe('TOO_LARGE_STRING_SIZE')
      expect((error as ClickHouseError).message).toMatch(/^Too large value for FixedString\(3\)/)
      // The value that fits (3 bytes) goes in; nothing of the refused insert did.
      await client.insert({ table, values: [{ fs: 'bar' }], format: 'JSONEachRow' })
      expect(await serverRun(`SELECT fs FROM ${table} FORMAT TSV`)).toBe('bar\n')
    })

    it('a placeholder without a value is UNKNOWN_QUERY_PARAMETER with the server text, ours as cause', async () => {
      const sql = 'SELECT number FROM system.numbers WHERE number > {min_limit: UInt64} LIMIT 3'
      for (const run of [
        () => client.query({ query: sql }),
        () => client.query({ query: sql, query_params: { other: 1 } }),
        () => client.command({ query: sql }),
      ]) {
        const error = await thrown(run)
        expect(error).toBeInstanceOf(ClickHouseError)
        const compat = error as ClickHouseError
        expect({ code: compat.code, type: compat.type, message: compat.message }).toEqual({
          code: '456',
          type: 'UNKNOWN_QUERY_PARAMETER',
          message: 'Substitution `min_limit` is not set',
        })
        expect(UsageError.isInstance(compat.cause)).toBe(true)
        expect((compat.cause as UsageError).message).toMatch(/\{min_limit:UInt64\}/)
      }
      // 18.16 binds no parameters itself (its answer is a syntax error): the text is of later servers.
      if (!legacy) {
        const text = await serverError(sql)
        expect(text).toMatch(/^Code: 456\./)
        expect(text).toContain('Substitution `min_limit` is not set')
      }
    })
  },
)
