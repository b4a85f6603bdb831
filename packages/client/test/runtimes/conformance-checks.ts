// The runtime-neutral conformance checks: the public API only, no Node module, so the same
// file runs on Node, Bun, Deno and (bundled) workerd. Each check gives a string that the
// test compares with what the server itself renders (conformance-expected.ts).
import { ClickHouseError, type Client, type ClientOptions, createClient, sql } from '@clickwire/client'

/** What `createClient` a runtime's entry gives (Node's, the browser build on workerd). */
export type CreateClient = (options: ClientOptions) => Client

type Check = (ch: Client, context: CheckContext) => Promise<string>

interface CheckContext {
  readonly url: string
  readonly transport: 'native' | 'http'
  readonly create: CreateClient
  readonly table: string
}

async function* generated(rows: number): AsyncGenerator<{ id: number; label: string }[]> {
  for (let start = 0; start < rows; start += 1000) {
    const batch: { id: number; label: string }[] = []
    for (let id = start; id < Math.min(rows, start + 1000); id++) batch.push({ id, label: `#${id}` })
    yield batch
  }
}

const stringOf = (value: unknown): string =>
  JSON.stringify(value, (_key, each) => (typeof each === 'bigint' ? `${each}n` : each))

/** Every check, by name; each runs on a client of its own transport and options. */
export const checks: Record<string, Check> = {
  ping: async (ch) => {
    await ch.ping()
    return 'ok'
  },
  'rows with params': async (ch) =>
    stringOf(
      await (
        await ch.query('SELECT {a:UInt32} + 1 AS x, {s:String} AS s', { params: { a: 41, s: 'é "q" \\ \t' } })
      ).rows(),
    ),
  'sql tag': async (ch) => stringOf(await (await ch.query(sql`SELECT ${7} * 6 AS v, ${'x y'} AS w`)).rows()),
  columns: async (ch) => {
    const columns = await (
      await ch.query<{ n: number; s: string }>(
        'SELECT toUInt32(number) AS n, toString(number) AS s FROM numbers(5)',
      )
    ).columns()
    return `${columns.n.constructor.name} ${Array.from(columns.n).join(',')} ${Array.from(columns.s).join(',')}`
  },
  arrow: async (ch) => {
    const table = await ch.queryArrow(
      'SELECT toUInt32(number) AS n, toString(number) AS s FROM numbers(1000)',
    )
    let sum = 0
    for (const value of table.getChild('n')!) sum += Number(value)
    return `${table.numRows} rows, ${table.schema.fields.map((field) => `${field.name}:${field.type}`).join(' ')}, sum ${sum}`
  },
  'streaming 1M rows': async (ch) => {
    let rows = 0
    let sum = 0n
    for await (const row of await ch.query<{ number: bigint }>('SELECT number FROM numbers(1000000)')) {
      rows++
      sum += row.number
    }
    return `${rows} rows, sum ${sum}`
  },
  'insert rows and a stream': async (ch, { table }) => {
    await ch.command(`CREATE TABLE ${table} (id UInt32, label String) ENGINE = Memory`)
    try {
      await ch.insert(table, [
        { id: 1_000_000, label: 'one' },
        { id: 1_000_001, label: 'two' },
      ])
      const streamed = await ch.insert(table, generated(10_000))
      const [summary] = await (
        await ch.query<{ s: string }>(
          `SELECT toString((count(), sum(id), countIf(label = concat('#', toString(id))))) AS s FROM ${table}`,
        )
      ).rows()
      return `${streamed.rowsWritten} streamed; ${summary!.s}`
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  },
  'server error': async (ch) => {
    try {
      await (await ch.query('SELECT * FROM clickwire_no_such_table')).rows()
      return 'no error'
    } catch (error) {
      const ok = error instanceof ClickHouseError
      return `${ok ? 'ClickHouseError' : (error as Error).name} ${(error as ClickHouseError).code}`
    }
  },
  'abort stops the query on the server': async (ch, { transport }) => {
    const queryId = `conformance-abort-${transport}-${Date.now()}-${Math.random().toString(36).slice(2)}`
    const controller = new AbortController()
    const running = ch.query('SELECT sleepEachRow(1) FROM numbers(300) SETTINGS max_block_size = 1', {
      queryId,
      signal: controller.signal,
    })
    let seen = false
    for (let tries = 0; tries < 200 && !seen; tries++) {
      const [row] = await (
        await ch.query<{ c: string }>(
          `SELECT toString(count()) AS c FROM system.processes WHERE query_id = {id:String}`,
          { params: { id: queryId } },
        )
      ).rows()
      seen = row!.c === '1'
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    controller.abort()
    let name = 'resolved'
    try {
      await (await running).rows()
    } catch (error) {
      name = (error as Error).name
    }
    let left = '1'
    for (let tries = 0; tries < 100 && left !== '0'; tries++) {
      const [row] = await (
        await ch.query<{ c: string }>(
          `SELECT toString(count()) AS c FROM system.processes WHERE query_id = {id:String}`,
          { params: { id: queryId } },
        )
      ).rows()
      left = row!.c
      if (left !== '0') await new Promise((resolve) => setTimeout(resolve, 100))
    }
    return `seen running ${seen}, ${name}, left running ${left}`
  },
  'every compression': async (_ch, { url, transport, create, table }) => {
    // Each method both ways: an insert sends compressed blocks (HTTP: a compressed body), a
    // query receives them (native; HTTP `frames` asks for compressed answers).
    const methods: [string, ClientOptions['compression']][] =
      transport === 'native'
        ? [
            ['none', 'none'],
            ['lz4', 'lz4'],
            ['zstd', 'zstd'],
          ]
        : [
            ['none', 'none'],
            ['gzip', 'gzip'],
            ['lz4', 'lz4'],
            ['zstd', 'zstd'],
            ['frames', { response: 'frames' }],
          ]
    const answers: string[] = []
    for (const [name, compression] of methods) {
      const ch = create({ url, compression })
      const target = `${table}_${name}`
      try {
        const [row] = await (
          await ch.query<{ s: string }>(
            'SELECT toString((count(), sum(length(concat(toString(number), toString(number)))))) AS s FROM numbers(200000)',
          )
        ).rows()
        await ch.command(`CREATE TABLE ${target} (id UInt32, label String) ENGINE = Memory`)
        await ch.insert(target, generated(5000))
        const [inserted] = await (
          await ch.query<{ s: string }>(
            `SELECT toString((count(), sum(id), countIf(label = concat('#', toString(id))))) AS s FROM ${target}`,
          )
        ).rows()
        answers.push(`${name} ${row!.s} ${inserted!.s}`)
      } catch (error) {
        // Each method answers for itself: one that cannot load leaves the others checked.
        answers.push(`${name} threw ${(error as Error).name}: ${(error as Error).message}`)
      } finally {
        await ch.command(`DROP TABLE IF EXISTS ${target}`).catch(() => undefined)
        await ch.close()
      }
    }
    return answers.join('; ')
  },
  'raw format': async (ch, { transport }) => {
    if (transport === 'native') return 'http only'
    const stream = await ch.queryRaw('SELECT number, toString(number * 2) AS d FROM numbers(3)', {
      format: 'CSV',
    })
    return stream.text()
  },
}

/** Runs every check over a client of `url`; a check that throws gives its error's name and message. */
export async function runConformance(create: CreateClient, url: string): Promise<Record<string, string>> {
  const transport = url.startsWith('clickhouse') ? 'native' : 'http'
  const results: Record<string, string> = {}
  const ch = create({ url })
  try {
    for (const [name, check] of Object.entries(checks)) {
      const table = `conformance_${transport}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
      try {
        results[name] = await check(ch, { url, transport, create, table })
      } catch (error) {
        results[name] = `threw ${(error as Error).name}: ${(error as Error).message}`
      }
    }
  } finally {
    await ch.close()
  }
  return results
}

/** Keeps `createClient` the default the checks use when a runtime's entry gives no other. */
export const defaultCreate: CreateClient = createClient
