// Type tests (checked by `tsc -p tsconfig.json`; vitest runs them as no-ops): query<Row>()
// row types, the element types of columns(), and what the sql tag accepts.
import type { DataType, RecordBatch, Table, TypeMap, Vector } from 'apache-arrow'
import { describe, expectTypeOf, it } from 'vitest'
import type { Client } from './clickwire-client.js'
import type {
  ArrowTypeMapOf,
  ClientInsertResult,
  KnownSettings,
  RowObject,
  Settings,
} from './client-exports.js'
import { createClient } from './create-client-node.js'
import type { ColumnValuesOf, NumberArray, ResultColumns } from './result-columns.js'
import type { ResultBlock, ResultSet } from './result-set.js'
import { type SqlFragment, type SqlInterpolation, sql } from './sql-template.js'

interface Event {
  id: number
  user: bigint
  name: string
  at: string
  score: number | null
  tags: string[]
  attributes: Map<string, bigint>
}

// Made, never used: no request is sent (HTTP clients connect on their first call).
const ch: Client = createClient('http://127.0.0.1:9')

describe('query<Row>()', () => {
  it('types the result set, its rows, iteration and blocks by Row', () => {
    expectTypeOf(ch.query<Event>).returns.resolves.toEqualTypeOf<ResultSet<Event>>()
    expectTypeOf<ResultSet<Event>['rows']>().returns.resolves.toEqualTypeOf<Event[]>()
    expectTypeOf<ResultSet<Event>['arrays']>().returns.resolves.toEqualTypeOf<unknown[][]>()
    expectTypeOf<ResultSet<Event>['arrow']>().returns.resolves.toEqualTypeOf<Table<ArrowTypeMapOf<Event>>>()
    expectTypeOf<ResultSet<Event>>().toMatchTypeOf<AsyncIterable<Event>>()
    expectTypeOf<ReturnType<ResultSet<Event>['blocks']>>().toEqualTypeOf<
      AsyncGenerator<ResultBlock<Event>, void, undefined>
    >()
    expectTypeOf<ResultBlock<Event>['rows']>().returns.toEqualTypeOf<Event[]>()
    expectTypeOf<ResultSet<Event>['totals']>().toEqualTypeOf<Event | undefined>()
  })

  it('defaults to plain row objects', () => {
    const untyped = () => ch.query('SELECT 1')
    expectTypeOf(untyped).returns.resolves.toEqualTypeOf<ResultSet<RowObject>>()
    expectTypeOf<ResultSet['rows']>().returns.resolves.toEqualTypeOf<Record<string, unknown>[]>()
  })
})

describe('columns()', () => {
  it('gives typed arrays for numbers, bigint arrays for 64-bit integers, arrays for the rest', () => {
    type Columns = ResultColumns<Event>
    expectTypeOf<Columns['id']>().toEqualTypeOf<NumberArray | number[]>()
    expectTypeOf<Columns['user']>().toEqualTypeOf<BigInt64Array | BigUint64Array | bigint[]>()
    expectTypeOf<Columns['name']>().toEqualTypeOf<string[]>()
    expectTypeOf<Columns['score']>().toEqualTypeOf<(number | null)[]>()
    expectTypeOf<Columns['tags']>().toEqualTypeOf<string[][]>()
    expectTypeOf<Columns['attributes']>().toEqualTypeOf<Map<string, bigint>[]>()
    expectTypeOf<ResultSet<Event>['columns']>().returns.resolves.toEqualTypeOf<Columns>()
    expectTypeOf<ResultBlock<Event>['columns']>().returns.toEqualTypeOf<Columns>()
  })

  it('keeps unknown values as ArrayLike<unknown>', () => {
    expectTypeOf<ColumnValuesOf<unknown>>().toEqualTypeOf<ArrayLike<unknown>>()
    expectTypeOf<ResultColumns<RowObject>[string]>().toEqualTypeOf<ArrayLike<unknown>>()
  })

  it('matches what each typed array holds', () => {
    expectTypeOf<Int32Array>().toMatchTypeOf<ColumnValuesOf<number>>()
    expectTypeOf<Float64Array>().toMatchTypeOf<ColumnValuesOf<number>>()
    expectTypeOf<BigInt64Array>().toMatchTypeOf<ColumnValuesOf<bigint>>()
    expectTypeOf<string[]>().not.toMatchTypeOf<ColumnValuesOf<number>>()
  })
})

describe('insert()', () => {
  it('takes rows typed by Row, columns, Arrow tables and async iterables', () => {
    expectTypeOf(ch.insert<Event>).returns.resolves.toEqualTypeOf<ClientInsertResult>()
    expectTypeOf(ch.insert<{ id: number }>)
      .parameter(1)
      .toMatchTypeOf<unknown>()
    // @ts-expect-error a row of the wrong shape for Row
    void (() => ch.insert<{ id: number }>('t', [{ id: 'one' }]))
    void (() => ch.insert<{ id: number }>('t', [{ id: 1 }]))
    void (() => ch.insert('t', { id: new Uint32Array(3), name: ['a', 'b', 'c'] }))
    async function* generated() {
      yield { id: 1 }
      yield [{ id: 2 }, { id: 3 }]
    }
    void (() => ch.insert('t', generated()))
  })
})

describe('sql', () => {
  it('builds a fragment from values of the types it can send', () => {
    const id = 5
    const tags = ['a', 'b']
    expectTypeOf(
      sql`SELECT ${1} ${2n} ${'x'} ${true} ${null} ${undefined} ${new Date()} ${id} ${tags} ${[1, null]}`,
    ).toEqualTypeOf<SqlFragment>()
    expectTypeOf(
      sql`${new Uint8Array(2)} ${new Float64Array(2)} ${new Map([['k', 1]])} ${{ a: 1 }}`,
    ).toEqualTypeOf<SqlFragment>()
    expectTypeOf(
      sql`${sql.id('db', 'table')} ${sql.raw('1')} ${sql.typed(1, 'UInt8')} ${sql`x`}`,
    ).toEqualTypeOf<SqlFragment>()
    expectTypeOf(sql.join([sql`a`, 1, 'b'], sql` AND `)).toEqualTypeOf<SqlFragment>()
    expectTypeOf<number>().toMatchTypeOf<SqlInterpolation>()
  })

  it('refuses what cannot be a parameter: functions, symbols, class instances', () => {
    // These are compile-time checks only; none of the fragments is ever sent.
    // @ts-expect-error a function is not a value
    void sql`SELECT ${() => 1}`
    // @ts-expect-error a symbol is not a value
    void sql`SELECT ${Symbol('x')}`
    // @ts-expect-error an arbitrary class instance is not a value
    void sql`SELECT ${new URL('http://x')}`
    // @ts-expect-error an array holding a function is not a value
    void sql`SELECT ${[1, () => 2]}`
    // @ts-expect-error sql.id takes names (strings) only
    void (() => sql.id(1))
    expectTypeOf<() => void>().not.toMatchTypeOf<SqlInterpolation>()
    expectTypeOf<symbol>().not.toMatchTypeOf<SqlInterpolation>()
  })

  it('is what query() and command() take besides strings', () => {
    expectTypeOf(ch.query).parameter(0).toEqualTypeOf<string | SqlFragment>()
    expectTypeOf(ch.command).parameter(0).toEqualTypeOf<string | SqlFragment>()
  })
})

describe('arrow()', () => {
  it('types the table by the row type, never as any', () => {
    type Events = ArrowTypeMapOf<Event>
    expectTypeOf<keyof Events>().toEqualTypeOf<keyof Event>()
    expectTypeOf<Events['id']>().toEqualTypeOf<DataType>()
    expectTypeOf<Table<Events>['getChild']>().parameter(0).toEqualTypeOf<keyof Event>()
    expectTypeOf<ReturnType<Table<Events>['getChild']>>().toEqualTypeOf<Vector<DataType> | null>()
    expectTypeOf<ResultBlock<Event>['arrow']>().returns.resolves.toEqualTypeOf<RecordBatch<Events>>()
    // Untyped rows: any column name, Arrow's TypeMap (not Table<any>).
    expectTypeOf<ResultSet['arrow']>().returns.resolves.toEqualTypeOf<Table<TypeMap>>()
    // biome-ignore lint/suspicious/noExplicitAny: the type arrow() had before, which it must not be
    expectTypeOf<ResultSet['arrow']>().returns.resolves.not.toEqualTypeOf<Table<any>>()
  })
})

describe('settings', () => {
  it('knows the common names with their values, and takes any other name', () => {
    expectTypeOf<'max_execution_time' | 'max_threads' | 'async_insert' | 'readonly'>().toMatchTypeOf<
      keyof KnownSettings
    >()
    expectTypeOf<Settings['readonly']>().toEqualTypeOf<0 | 1 | 2 | '0' | '1' | '2' | boolean | undefined>()
    expectTypeOf<Settings['timeout_overflow_mode']>().toEqualTypeOf<'throw' | 'break' | undefined>()
    const settings: Settings = {
      max_execution_time: 10,
      max_threads: '4',
      async_insert: true,
      wait_for_async_insert: 1,
      output_format_json_quote_64bit_integers: 0,
      // Any other setting, as the server names it.
      some_new_setting: 'x',
    }
    expectTypeOf(settings).toMatchTypeOf<Settings>()
    // @ts-expect-error readonly is 0, 1 or 2
    const wrong: Settings = { readonly: 3 }
    // @ts-expect-error a setting's value is a string, number, boolean or bigint
    const notAValue: Settings = { anything: {} }
    void [wrong, notAValue]
    expectTypeOf({ max_block_size: 10, join_use_nulls: 1 } as const).toMatchTypeOf<
      NonNullable<Parameters<Client['query']>[1]>['settings']
    >()
  })
})
