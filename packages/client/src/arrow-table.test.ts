// arrow() conversion for the types 18.16 lacks, on blocks decoded from chdb's Native bytes
// (ClickHouse 26.7 in-process) and from blocks clickwire encodes: the same result as
// apache-arrow building the values rows() gives, type by type.
import {
  ByteReader,
  ByteWriter,
  type ColumnMeta,
  defaultValueMapping,
  loadCodecs,
  type NativeBlock,
  NativeBlockReader,
  parseType,
  rowObjects,
} from '@clickwire/protocol'
import { NativeBlockWriter } from '@clickwire/protocol/insert'
import { chdbBytes } from '@clickwire/testing'
import {
  Bool,
  type DataType,
  DateDay,
  Decimal,
  DenseUnion,
  Dictionary,
  DurationMillisecond,
  DurationSecond,
  Field,
  FixedSizeBinary,
  Float64,
  Int32,
  List,
  Map_,
  makeBuilder,
  makeVector,
  Null,
  Struct,
  TimestampMicrosecond,
  TimestampMillisecond,
  TimestampNanosecond,
  TimestampSecond,
  Uint8,
  Uint64,
  Utf8,
  type Vector,
} from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { instantMs, referenceVector, typeSignature, vectorValues } from '../test/support/arrow-reference.js'
import { ArrowConverter } from './arrow-table.js'

// Blocks are read and written here with the synchronous codecs, which the transports would
// have loaded (Time, Variant, JSON, Dynamic load on demand).
await loadCodecs()

const context = { revision: 0, timezone: 'UTC', mapping: defaultValueMapping }

function decode(bytes: Uint8Array): NativeBlock[] {
  const reader = new ByteReader(bytes)
  const blocks = new NativeBlockReader(context, false)
  const out: NativeBlock[] = []
  while (reader.offset < bytes.length) {
    const block = blocks.read(reader)
    if (!block) throw new Error(`Native body cut at ${reader.offset} of ${bytes.length}`)
    out.push(block)
  }
  return out
}

/** Blocks of one column `c`, as chdb returns them for `expression` (one row per array element). */
async function chdbBlocks(expression: string): Promise<NativeBlock[]> {
  const settings =
    'allow_experimental_variant_type = 1, allow_experimental_dynamic_type = 1, allow_experimental_json_type = 1, allow_suspicious_low_cardinality_types = 1'
  return decode(await chdbBytes(`SELECT ${expression} AS c SETTINGS ${settings}`))
}

/** The one-column Arrow vector of blocks, through the same converter arrow() uses. */
function arrowOf(blocks: readonly NativeBlock[]): Vector {
  const meta: ColumnMeta[] = blocks[0]!.columns.map((column) => ({
    name: column.name,
    type: column.typeName,
    typeNode: column.type,
  }))
  const converter = new ArrowConverter(meta, 'UTC')
  return converter.table(blocks.map((block) => converter.recordBatch(block))).getChild('c')!
}

/** The rows() values of the column. */
function rowValues(blocks: readonly NativeBlock[]): unknown[] {
  return blocks.flatMap((block) => rowObjects(block).map((row) => row.c))
}

/** Ticks of `10^-digits` s of a `YYYY-MM-DD hh:mm:ss[.f]` text on a zone's clock, exactly. */
function ticks(text: string, zone: string, digits: number): bigint {
  const [whole, fraction = ''] = text.split('.')
  const seconds = BigInt(instantMs(whole!, zone) / 1000)
  return seconds * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, '0').slice(0, digits) || '0')
}

const list = (type: DataType, nullable = false) => new List(new Field('item', type, nullable))
/** Map<key, value> as arrow() makes it: entries `key` (never null) and `value`. */
function mapOf(key: DataType, value: DataType, valueNullable: boolean): DataType {
  const entries = new Struct([
    new Field('key', key, false),
    new Field('value', value, valueNullable),
  ] as never[])
  return new Map_(new Field('entries', entries, false) as never)
}
const point = () => new Struct([new Field('x', new Float64(), false), new Field('y', new Float64(), false)])

interface Case {
  readonly expression: string
  /** The ClickHouse type chdb gives the column. */
  readonly type: string
  /** The documented Arrow type and nullability. */
  readonly arrow: DataType
  readonly nullable?: boolean
  /** How to build the reference from rows() values (default: apache-arrow's builder). */
  readonly reference?: (values: readonly unknown[]) => Vector
}

const cases: Record<string, Case> = {
  Bool: { expression: 'arrayJoin([true, false, true])', type: 'Bool', arrow: new Bool() },
  'Nullable(Bool)': {
    expression: 'arrayJoin([true, NULL, false])',
    type: 'Nullable(Bool)',
    arrow: new Bool(),
    nullable: true,
  },
  Date32: {
    expression: "arrayJoin([toDate32('1900-01-01'), toDate32('2299-12-31'), toDate32('1970-01-02')])",
    type: 'Date32',
    arrow: new DateDay(),
  },
  'DateTime64(3)': {
    expression:
      "arrayJoin([toDateTime64('1969-12-31 23:59:59.999', 3, 'UTC'), toDateTime64('2020-02-29 12:00:00.001', 3, 'UTC')])",
    type: "DateTime64(3, 'UTC')",
    arrow: new TimestampMillisecond('UTC'),
  },
  'DateTime64(0)': {
    expression: "arrayJoin([toDateTime64('2020-01-01 09:00:00', 0, 'Asia/Tokyo')])",
    type: "DateTime64(0, 'Asia/Tokyo')",
    arrow: new TimestampSecond('Asia/Tokyo'),
  },
  'DateTime64(6)': {
    expression:
      "arrayJoin([toDateTime64('2020-01-01 00:00:00.123456', 6, 'UTC'), toDateTime64('1960-06-01 00:00:00.000001', 6, 'UTC')])",
    type: "DateTime64(6, 'UTC')",
    arrow: new TimestampMicrosecond('UTC'),
    reference: (values) =>
      makeVector({
        type: new TimestampMicrosecond('UTC'),
        data: BigInt64Array.from(values, (value) => ticks(value as string, 'UTC', 6)),
      } as never),
  },
  'DateTime64(9)': {
    expression: "arrayJoin([toDateTime64('2020-01-01 09:00:00.123456789', 9, 'Asia/Tokyo')])",
    type: "DateTime64(9, 'Asia/Tokyo')",
    arrow: new TimestampNanosecond('Asia/Tokyo'),
    reference: (values) =>
      makeVector({
        type: new TimestampNanosecond('Asia/Tokyo'),
        data: BigInt64Array.from(values, (value) => ticks(value as string, 'Asia/Tokyo', 9)),
      } as never),
  },
  'DateTime64(2), scaled to ms': {
    expression: "arrayJoin([toDateTime64('2020-01-01 00:00:00.12', 2, 'UTC')])",
    type: "DateTime64(2, 'UTC')",
    arrow: new TimestampMillisecond('UTC'),
  },
  'Map(String, UInt64)': {
    expression: "arrayJoin([map('a', toUInt64(1), 'b', toUInt64(18446744073709551615)), map()])",
    type: 'Map(String, UInt64)',
    arrow: mapOf(new Utf8(), new Uint64(), false),
  },
  'Map(LowCardinality(String), Nullable(Int32))': {
    expression:
      "arrayJoin([map(toLowCardinality('x'), toNullable(toInt32(1)), toLowCardinality('y'), NULL)])",
    type: 'Map(LowCardinality(String), Nullable(Int32))',
    arrow: mapOf(new Dictionary(new Utf8(), new Int32()), new Int32(), true),
  },
  IPv4: {
    expression: "arrayJoin([toIPv4('1.2.3.4'), toIPv4('255.255.255.255')])",
    type: 'IPv4',
    arrow: new Utf8(),
  },
  IPv6: {
    expression: "arrayJoin([toIPv6('::1'), toIPv6('::ffff:1.2.3.4'), toIPv6('2001:db8::8a2e:370:7334')])",
    type: 'IPv6',
    arrow: new Utf8(),
  },
  Int128: {
    expression: "arrayJoin([toInt128('-170141183460469231731687303715884105728'), toInt128(1)])",
    type: 'Int128',
    arrow: new Utf8(),
    reference: (values) => referenceVector(new Utf8(), values.map(String)),
  },
  UInt256: {
    expression:
      "arrayJoin([toUInt256('115792089237316195423570985008687907853269984665640564039457584007913129639935'), toUInt256(0)])",
    type: 'UInt256',
    arrow: new Utf8(),
    reference: (values) => referenceVector(new Utf8(), values.map(String)),
  },
  'Decimal(76, 10)': {
    expression:
      "arrayJoin([toDecimal256('-123456789012345678901234567890123456789012345678901234567890.0123456789', 10), toDecimal256('1.5', 10)])",
    type: 'Decimal(76, 10)',
    arrow: new Decimal(10, 76, 256),
  },
  'Nullable(Decimal(40, 2))': {
    expression: "arrayJoin([NULL, toDecimal256('-0.5', 2)])::Nullable(Decimal(40, 2))",
    type: 'Nullable(Decimal(40, 2))',
    arrow: new Decimal(2, 40, 256),
    nullable: true,
  },
  Time: {
    expression: "arrayJoin(['-01:02:03', '999:59:59', '00:00:00'])::Time",
    type: 'Time',
    arrow: new DurationSecond(),
    reference: (values) =>
      referenceVector(
        new DurationSecond(),
        values.map((value) => timeTicks(value as string, 0)),
      ),
  },
  'Time64(3)': {
    expression: "arrayJoin(['12:00:00.5', '-00:00:00.001'])::Time64(3)",
    type: 'Time64(3)',
    arrow: new DurationMillisecond(),
    reference: (values) =>
      referenceVector(
        new DurationMillisecond(),
        values.map((value) => timeTicks(value as string, 3)),
      ),
  },
  'Tuple(a UInt8, b String)': {
    expression: "arrayJoin([(1, 'x'), (2, '')])::Tuple(a UInt8, b String)",
    type: 'Tuple(a UInt8, b String)',
    arrow: new Struct([new Field('a', new Uint8(), false), new Field('b', new Utf8(), false)]),
  },
  Point: { expression: 'arrayJoin([(1.5, 2.5), (0, -1)])::Point', type: 'Point', arrow: point() },
  Ring: { expression: 'arrayJoin([[(0, 0), (1, 0), (1, 1)], []])::Ring', type: 'Ring', arrow: list(point()) },
  MultiPolygon: {
    expression: 'arrayJoin([[[[(0, 0), (1, 1)]], []]])::MultiPolygon',
    type: 'MultiPolygon',
    arrow: list(list(list(point()))),
  },
  'LowCardinality(Nullable(String))': {
    expression:
      "arrayJoin([toLowCardinality(toNullable('q')), NULL, 'r', 'q'])::LowCardinality(Nullable(String))",
    type: 'LowCardinality(Nullable(String))',
    arrow: new Dictionary(new Utf8(), new Int32()),
    nullable: true,
  },
  'LowCardinality(UInt64)': {
    expression: 'arrayJoin([toUInt64(7), 7, 8])::LowCardinality(UInt64)',
    type: 'LowCardinality(UInt64)',
    arrow: new Dictionary(new Uint64(), new Int32()),
  },
  "Nullable(Enum16('x' = -300, 'y' = 1000))": {
    expression: "arrayJoin(['y', NULL, 'x'])::Nullable(Enum16('x' = -300, 'y' = 1000))",
    type: "Nullable(Enum16('x' = -300, 'y' = 1000))",
    arrow: new Dictionary(new Utf8(), new Int32()),
    nullable: true,
  },
  'FixedString with bytes that are not UTF-8': {
    expression: "arrayJoin([unhex('ff00'), 'ab'])::FixedString(2)",
    type: 'FixedString(2)',
    arrow: new FixedSizeBinary(2),
    // rows() decodes text (U+FFFD for the 0xff byte); Arrow keeps the bytes.
    reference: () =>
      referenceVector(new FixedSizeBinary(2), [new Uint8Array([0xff, 0]), new Uint8Array([97, 98])]),
  },
  'Variant(Array(UInt8), String, UInt64)': {
    expression: `arrayJoin([${['toUInt64(1)', "'a'", 'NULL', '[2, 3]', 'toUInt64(4)']
      .map((value) => `${value}::Variant(Array(UInt8), String, UInt64)`)
      .join(', ')}])`,
    type: 'Variant(Array(UInt8), String, UInt64)',
    arrow: new DenseUnion(
      [0, 1, 2, 3],
      [
        new Field('Array(UInt8)', list(new Uint8()), false),
        new Field('String', new Utf8(), false),
        new Field('UInt64', new Uint64(), false),
        new Field('NULL', new Null(), true),
      ],
    ),
    nullable: true,
    reference: (values) => {
      const type = cases['Variant(Array(UInt8), String, UInt64)']!.arrow
      const builder = makeBuilder({
        type,
        nullValues: [],
        valueToChildTypeId: (_builder: unknown, value: unknown) =>
          value === null ? 3 : Array.isArray(value) ? 0 : typeof value === 'string' ? 1 : 2,
      } as never)
      for (const value of values) builder.append(value)
      return makeVector(builder.finish().flush())
    },
  },
  'JSON (as JSON text)': {
    expression: `arrayJoin(['{"a": 1, "b": {"c": "x"}}', '{}'])::JSON`,
    type: 'JSON',
    arrow: new Utf8(),
    nullable: true,
    reference: () => referenceVector(new Utf8(), ['{"a":"1","b":{"c":"x"}}', '{}']),
  },
  'Dynamic (as JSON text)': {
    expression: "arrayJoin([toUInt64(5)::Dynamic, 'x'::Dynamic, NULL::Dynamic])",
    type: 'Dynamic',
    arrow: new Utf8(),
    nullable: true,
    reference: () => referenceVector(new Utf8(), ['"5"', '"x"', null]),
  },
}

/** Seconds or ticks of `[-]h:mm:ss[.f]`, as a bigint. */
function timeTicks(text: string, digits: number): bigint {
  const negative = text.startsWith('-')
  const [clock, fraction = ''] = text.replace('-', '').split('.')
  const [h, m, s] = clock!.split(':').map(BigInt)
  const whole = (h! * 3600n + m! * 60n + s!) * 10n ** BigInt(digits)
  const value = whole + BigInt(fraction.padEnd(digits, '0').slice(0, digits) || '0')
  return negative ? -value : value
}

describe('arrow() conversion of the types 18.16 lacks (chdb bytes)', () => {
  it.each(Object.entries(cases))(
    '%s',
    async (_name, { expression, type, arrow, nullable = false, reference }) => {
      const blocks = await chdbBlocks(expression)
      expect(blocks[0]!.columns[0]!.typeName).toBe(type)
      const ours = arrowOf(blocks)
      const values = rowValues(blocks)
      const expected = reference ? reference(values) : referenceVector(arrow, values)
      expect(typeSignature(ours.type)).toBe(typeSignature(arrow))
      expect(typeSignature(expected.type)).toBe(typeSignature(arrow))
      expect(ours.nullCount).toBe(expected.nullCount)
      expect(vectorValues(ours)).toEqual(vectorValues(expected))
      // Timestamps below milliseconds: compare the ticks themselves, not get()'s milliseconds.
      if (arrow instanceof TimestampMicrosecond || arrow instanceof TimestampNanosecond) {
        expect(ours.toArray()).toEqual(expected.toArray())
      }
      const meta = blocks[0]!.columns[0]!
      const schemaNullable = new ArrowConverter(
        [{ name: 'c', type: meta.typeName, typeNode: meta.type }],
        'UTC',
      ).schema.fields[0]!.nullable
      expect(schemaNullable).toBe(nullable)
    },
  )
})

describe('arrow() conversion of blocks clickwire encodes', () => {
  /** A one-column block written by protocol's encoder and read back. */
  function roundTrip(type: string, values: unknown[], blocks = 1): NativeBlock[] {
    const writer = new ByteWriter()
    const blockWriter = new NativeBlockWriter(context, false)
    for (let i = 0; i < blocks; i++) blockWriter.write(writer, [{ name: 'c', type, values }], values.length)
    return decode(writer.copy())
  }

  it('Nested(x UInt8, y String) sent as one column -> List<Struct>', () => {
    const blocks = roundTrip('Nested(x UInt8, y String)', [[{ x: 1, y: 'a' }], []])
    const arrow = list(new Struct([new Field('x', new Uint8(), false), new Field('y', new Utf8(), false)]))
    const ours = arrowOf(blocks)
    expect(typeSignature(ours.type)).toBe(typeSignature(arrow))
    expect(vectorValues(ours)).toEqual(vectorValues(referenceVector(arrow, rowValues(blocks))))
  })

  it('keeps one dictionary type (and id) across batches of a LowCardinality column', () => {
    const blocks = roundTrip('LowCardinality(String)', ['a', 'b', 'a'], 3)
    const ours = arrowOf(blocks)
    expect(ours.data).toHaveLength(3)
    expect(new Set(ours.data.map((data) => (data.type as Dictionary).id)).size).toBe(1)
    expect(vectorValues(ours)).toEqual(['a', 'b', 'a', 'a', 'b', 'a', 'a', 'b', 'a'])
  })

  it('gives an empty result its schema from the ClickHouse types alone', () => {
    const meta = [
      'Nullable(Decimal(9, 2))',
      "Array(DateTime64(6, 'Asia/Tokyo'))",
      'LowCardinality(String)',
    ].map((type, index) => ({ name: `c${index}`, type, typeNode: parseType(type) }))
    const table = new ArrowConverter(meta, 'UTC').table([])
    expect(table.numRows).toBe(0)
    expect(table.schema.fields.map((field) => [typeSignature(field.type), field.nullable])).toEqual([
      [typeSignature(new Decimal(2, 9, 128)), true],
      [typeSignature(list(new TimestampMicrosecond('Asia/Tokyo'))), false],
      [typeSignature(new Dictionary(new Utf8(), new Int32())), false],
    ])
  })
})
