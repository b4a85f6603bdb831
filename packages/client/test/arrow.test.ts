// arrow() over every type 18.16 can store: the same table apache-arrow's own builders make
// from the values rows() gives, numeric buffers shared with the received blocks, and the
// table inserted back unchanged. Same expectations on both transports.
import {
  Binary,
  type DataType,
  DateDay,
  Decimal,
  Dictionary,
  Field,
  FixedSizeBinary,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  List,
  Null,
  Struct,
  Table,
  TimestampSecond,
  tableFromIPC,
  tableToIPC,
  Uint8,
  Uint16,
  Uint32,
  Uint64,
  Utf8,
} from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { referenceVector, tableValues, typeSignature, vectorValues } from './support/arrow-reference.js'
import { serverRun } from './support/server-oracle.js'
import { clientFor, server, transports, uniqueTable } from './support/transports.js'
import { catalog, catalogDefinitions, catalogRows, catalogValues } from './support/type-catalog.js'

const modern = server.generation === 'modern'

const float32 = new Float32Array(1)
const float32Bits = new Uint32Array(float32.buffer)

/** `x` rounded to BFloat16 (the upper half of a Float32, to nearest, ties to even). */
function toBFloat16(x: number): number {
  float32[0] = x
  const bits = float32Bits[0]!
  float32Bits[0] = (bits + 0x7fff + ((bits >>> 16) & 1)) & 0xffff0000
  return float32[0]!
}

const list = (type: DataType, nullable = false) => new List(new Field('item', type, nullable))
const dictionary = (type: DataType = new Utf8()) => new Dictionary(type, new Int32())
const decimal = (precision: number, scale: number) => new Decimal(scale, precision, 128)
const utc = () => new TimestampSecond('Etc/UTC')

/** The documented Arrow type of each catalog column (README, "Arrow types"), and nullability. */
const arrowTypes: Record<string, [DataType, boolean]> = {
  i8: [new Int8(), false],
  i16: [new Int16(), false],
  i32: [new Int32(), false],
  i64: [new Int64(), false],
  u8: [new Uint8(), false],
  u16: [new Uint16(), false],
  u32: [new Uint32(), false],
  u64: [new Uint64(), false],
  f32: [new Float32(), false],
  f64: [new Float64(), false],
  d32: [decimal(9, 2), false],
  d64: [decimal(18, 4), false],
  d128: [decimal(38, 10), false],
  s: [new Utf8(), false],
  fs: [new FixedSizeBinary(4), false],
  d: [new DateDay(), false],
  dt: [utc(), false],
  dtz: [new TimestampSecond('Asia/Tokyo'), false],
  uuid: [new Utf8(), false],
  e8: [dictionary(), false],
  e16: [dictionary(), false],
  ni: [new Int32(), true],
  nu64: [new Uint64(), true],
  ns: [new Utf8(), true],
  nd: [decimal(9, 2), true],
  ndate: [new DateDay(), true],
  ndt: [utc(), true],
  ndtz: [new TimestampSecond('Asia/Tokyo'), true],
  nf: [new Float64(), true],
  nuuid: [new Utf8(), true],
  nfs: [new FixedSizeBinary(2), true],
  ne: [dictionary(), true],
  a8: [list(new Uint8()), false],
  ai64: [list(new Int64()), false],
  as: [list(new Utf8()), false],
  aan: [list(list(new Utf8(), true)), false],
  an: [list(new Uint64(), true), false],
  ad: [list(decimal(18, 2)), false],
  adt: [list(new TimestampSecond('Asia/Tokyo')), false],
  adate: [list(new DateDay()), false],
  ae: [list(dictionary()), false],
  t: [
    new Struct([
      new Field('1', new Uint8(), false),
      new Field('2', new Utf8(), false),
      new Field('3', list(new Int16()), false),
    ]),
    false,
  ],
  tn: [new Struct([new Field('1', new Utf8(), true), new Field('2', decimal(9, 3), false)]), false],
  lc: [dictionary(), false],
  lcn: [dictionary(), true],
  lcfs: [dictionary(new FixedSizeBinary(2)), false],
  alc: [list(dictionary()), false],
  'n.a': [list(new Uint8()), false],
  'n.b': [list(new Utf8()), false],
}

const table = uniqueTable('arrow_catalog')
const names = catalog.map((column) => column.name)
const select = `SELECT ${names.map((name) => `\`${name}\``).join(', ')} FROM ${table} ORDER BY i8`

/** The reference table: one vector per column, built by apache-arrow from rows() values. */
function referenceTable(): Table {
  const rows = catalogRows()
  const columns = Object.fromEntries(
    catalog.map((column) => [
      column.name,
      referenceVector(
        arrowTypes[column.name]![0],
        rows.map((row) => row[column.name]),
      ),
    ]),
  )
  return new Table(columns)
}

beforeAll(async () => {
  await using ch = clientFor('http')
  await ch.command(`CREATE TABLE ${table} (${catalogDefinitions()}) ENGINE = Memory`)
  for (const row of catalogValues()) await ch.command(`INSERT INTO ${table} VALUES ${row}`)
})

afterAll(async () => {
  await using ch = clientFor('http')
  await ch.command(`DROP TABLE IF EXISTS ${table}`)
})

describe.each(transports)('%s', (transport) => {
  it('gives every column its documented Arrow type and nullability', async () => {
    await using ch = clientFor(transport)
    const arrow = await (await ch.query(select)).arrow()
    expect(
      arrow.schema.fields.map((field) => [field.name, typeSignature(field.type), field.nullable]),
    ).toEqual(
      catalog.map((column) => {
        const [type, nullable] = arrowTypes[column.name]!
        return [column.name, typeSignature(type), nullable]
      }),
    )
  })

  it.each(catalog.map((column) => column.name))(
    'builds %s like apache-arrow builds it from the same values',
    async (name) => {
      await using ch = clientFor(transport)
      // Three blocks of one row: the table has three record batches.
      const arrow = await (await ch.query(select, { settings: { max_block_size: 1 } })).arrow()
      expect(arrow.batches).toHaveLength(3)
      const ours = arrow.getChild(name)!
      const reference = referenceTable().getChild(name)!
      expect(typeSignature(ours.type)).toBe(typeSignature(reference.type))
      expect(ours.nullCount).toBe(reference.nullCount)
      expect(vectorValues(ours)).toEqual(vectorValues(reference))
    },
  )

  it('builds the types only expressions have: Interval, Nothing, Array(Nothing), AggregateFunction', async () => {
    await using ch = clientFor(transport)
    const arrow = await (
      await ch.query(
        'SELECT toIntervalDay(number) AS iv, NULL AS nothing, [] AS empty, sumState(toUInt64(number + 5)) AS state FROM numbers(2) GROUP BY number ORDER BY number',
      )
    ).arrow()
    const expected: Record<string, [DataType, unknown[]]> = {
      iv: [new Int64(), [0n, 1n]],
      nothing: [new Null(), [null, null]],
      empty: [list(new Null(), true), [[], []]],
      state: [
        new Binary(),
        [new Uint8Array([5, 0, 0, 0, 0, 0, 0, 0]), new Uint8Array([6, 0, 0, 0, 0, 0, 0, 0])],
      ],
    }
    for (const [name, [type, values]] of Object.entries(expected)) {
      const reference = referenceVector(type, values)
      expect(typeSignature(arrow.getChild(name)!.type), name).toBe(typeSignature(reference.type))
      expect(vectorValues(arrow.getChild(name)!), name).toEqual(vectorValues(reference))
    }
  })

  // BFloat16 came with 24.x servers: 18.16 has no such type.
  it.skipIf(!modern)('gives BFloat16 as Float32, each value exactly the server’s (26.x only)', async () => {
    await using ch = clientFor(transport)
    const values = 'arrayJoin([0.1, -1.5, 3.140625, 1e30, -2.5e-20, 65504, 0, inf, -inf])'
    const sql = `SELECT toBFloat16(x) AS b, if(x = 0, NULL, toBFloat16(x)) AS nb FROM (SELECT ${values} AS x)`
    const arrow = await (await ch.query(`${sql} ORDER BY b`)).arrow()
    expect(typeSignature(arrow.getChild('b')!.type)).toBe(typeSignature(new Float32()))
    expect(arrow.schema.fields.map((field) => [field.name, field.nullable])).toEqual([
      ['b', false],
      ['nb', true],
    ])
    // The oracle: the server's own text of each value, as BFloat16 and widened to Float32.
    const lines = (
      await serverRun(
        `SELECT toString(b), toString(toFloat32(b)), toString(nb) FROM (${sql}) ORDER BY b FORMAT TSV`,
      )
    )
      .trim()
      .split('\n')
      .map((line) => line.split('\t'))
    expect(lines).toHaveLength(9)
    const parse = (text: string) => Number(text.replace(/^(-?)inf$/, '$1Infinity'))
    const ours = vectorValues(arrow.getChild('b')!) as number[]
    const oursNullable = vectorValues(arrow.getChild('nb')!) as (number | null)[]
    for (const [row, [asBFloat16, asFloat32, nullable]] of lines.entries()) {
      expect(ours[row], `row ${row}: ${asFloat32}`).toBe(Math.fround(parse(asFloat32!)))
      expect(ours[row], `row ${row}: ${asBFloat16}`).toBe(toBFloat16(parse(asBFloat16!)))
      expect(oursNullable[row], `row ${row}`).toBe(nullable === '\\N' ? null : ours[row])
    }
    expect(ours).toContain(0.099609375)
  })

  it('shares the received buffers of numeric columns (no copy)', async () => {
    await using ch = clientFor(transport)
    const rs = await ch.query(
      `SELECT i32, f64, u64, d128, s FROM ${table} ORDER BY i8 SETTINGS max_threads = 1`,
    )
    let blocks = 0
    for await (const block of rs.blocks()) {
      blocks++
      const batch = await block.arrow()
      const received = block.native.columns.map(
        (column) => (column.column as { data?: ArrayBufferView }).data,
      )
      for (const [index, name] of ['i32', 'f64', 'u64', 'd128'].entries()) {
        const values = batch.getChild(name)!.data[0]!.values as ArrayBufferView
        expect(values.buffer, name).toBe(received[index]!.buffer)
        expect(values.byteOffset, name).toBe(received[index]!.byteOffset)
      }
      expect(vectorValues(batch.getChild('s')!)).toEqual(block.columns().s)
    }
    expect(blocks).toBe(1)
  })

  it('writes and reads back through Arrow IPC unchanged', async () => {
    await using ch = clientFor(transport)
    const arrow = await (await ch.query(select, { settings: { max_block_size: 1 } })).arrow()
    const again = tableFromIPC(tableToIPC(arrow, 'stream'))
    expect(tableValues(again)).toEqual(tableValues(arrow))
    expect(again.schema.fields.map((field) => typeSignature(field.type))).toEqual(
      arrow.schema.fields.map((field) => typeSignature(field.type)),
    )
  })

  it('inserts an arrow() table back into a table of the same types, unchanged', async () => {
    await using ch = clientFor(transport)
    const copy = uniqueTable(`arrow_copy_${transport}`)
    await ch.command(`CREATE TABLE ${copy} AS ${table}`)
    try {
      const arrow = await (await ch.query(select)).arrow()
      const result = await ch.insert(copy, arrow)
      expect(result.rowsWritten).toBe(3)
      const back = await (await ch.query(select.replace(table, copy))).rows()
      expect(back).toEqual(catalogRows())
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${copy}`)
    }
  })
})
