// `JSON.stringify(row, jsonReplacer)` against the server's own `FORMAT JSONEachRow` line for
// the same query, over both transports: every type 18.16 can store (the type catalog), and
// on 26.x every modern type family too. Both texts are parsed without loss (numbers keep
// their digits) and compared value by value, by column type. The only differences allowed
// are the ones jsonReplacer documents, each checked for what it is:
// - Float32 and BFloat16: we write the double the value decodes to, the server the
//   shortest text of the narrower float; both must denote the same Float32/BFloat16;
// - floats write -0 as 0 (JSON.stringify cannot write -0);
// - a Map whose keys are integers is written with those keys ascending (a JS object's
//   order), the server keeps the Map's order: same entries;
// - AggregateFunction states are bytes, which JSON cannot carry: not compared;
// - 18.16 cannot quote decimals (no output_format_json_quote_decimals): it prints their
//   digits as a JSON number, which must be exactly the digits of our string.
import { canonicalTypeName, parseType, type TypeNode, typeArguments } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { jsonReplacer, type RowObject } from '../src/index.js'
import { type JsonNode, JsonNumber, JsonObject, parseLossless } from './support/lossless-json.js'
import { type ModernCase, modernCases } from './support/modern-type-cases.js'
import { serverRun } from './support/server-oracle.js'
import { clientFor, server, transports, uniqueTable } from './support/transports.js'
import { catalog, catalogDefinitions, catalogValues } from './support/type-catalog.js'

const modern = server.generation === 'modern'

/**
 * ClickHouse's switches for exact JSON, which jsonReplacer's text equals. 18.16 quotes
 * 64-bit integers by default and knows neither of the others (it prints every decimal
 * digit, trailing zeros included).
 */
const exactJson: Record<string, string> = modern
  ? {
      output_format_json_quote_64bit_integers: '1',
      output_format_json_quote_decimals: '1',
      output_format_decimal_trailing_zeros: '1',
    }
  : {}

/** The server's JSONEachRow lines for `sql`, fetched over plain HTTP (not through clickwire). */
async function serverJson(sql: string): Promise<string[]> {
  const text = await serverRun(`${sql} FORMAT JSONEachRow`, exactJson)
  return text.split('\n').filter((line) => line !== '')
}

const float32 = new Float32Array(1)
const float32Bits = new Uint32Array(float32.buffer)

/** `x` rounded to BFloat16 (the upper half of a Float32, to nearest, ties to even). */
function toBFloat16(x: number): number {
  float32[0] = x
  const bits = float32Bits[0]!
  if (Number.isNaN(float32[0])) return Number.NaN
  float32Bits[0] = (bits + 0x7fff + ((bits >>> 16) & 1)) & 0xffff0000
  return float32[0]!
}

/** The epoch as DateTime text in UTC and in the zones the catalog's DateTime columns use. */
const epochText = new Set(['1970-01-01 00:00:00', '1970-01-01 09:00:00'])

/** True where the value's type is not in the JSON (Dynamic, Variant, JSON, or inside them). */
const typeHidden = (family: string) => ['', 'Dynamic', 'Variant', 'JSON', 'Object'].includes(family)

const unwrapped = new Set(['Nullable', 'LowCardinality', 'SimpleAggregateFunction'])

/** The type inside Nullable/LowCardinality wrappers. */
function inner(type: TypeNode): TypeNode {
  let node = type
  while (unwrapped.has(canonicalTypeName(node.name))) node = typeArguments(node).at(-1)!
  return node
}

/**
 * Checks our JSON value `ours` against the server's `theirs` for a value of `type`
 * (undefined: a value whose type the JSON does not say, inside Dynamic/Variant/JSON).
 */
function expectSame(ours: JsonNode, theirs: JsonNode, type: TypeNode | undefined, path: string): void {
  const node = type && inner(type)
  const family = node ? canonicalTypeName(node.name) : ''
  if (theirs instanceof JsonNumber && typeof ours === 'string' && family === 'Decimal' && !modern) {
    // 18.16 prints the decimal's digits unquoted: they must be exactly ours.
    expect(ours, path).toBe(theirs.text)
    return
  }
  if (!modern && typeof theirs === 'string' && theirs.startsWith('0000-00-00')) {
    // 18.16 prints day 0 and second 0 as zeros; the value is the epoch (26.x prints it so).
    if (family === 'Date') expect(ours, path).toBe('1970-01-01')
    else expect(family, path).toBe('DateTime')
    if (family === 'DateTime') expect(epochText.has(ours as string), `${path}: ${String(ours)}`).toBe(true)
    return
  }
  if (family === 'AggregateFunction') {
    // Not comparable: the server writes the state's raw bytes as if they were text (JSON
    // cannot carry bytes); we write the byte values.
    expect(typeof theirs, path).toBe('string')
    expect(Array.isArray(ours), path).toBe(true)
    return
  }
  if (theirs instanceof JsonNumber && /^[-+]?(inf|nan)$/.test(theirs.text)) {
    // QBit elements: the server writes a bare inf/nan (not JSON); JSON has null for them.
    expect(ours, path).toBe(null)
    return
  }
  if (theirs instanceof JsonNumber) {
    expect(ours, path).toBeInstanceOf(JsonNumber)
    const [a, b] = [Number((ours as JsonNumber).text), Number(theirs.text)]
    // Floats compare with ===, so that -0 (which JSON.stringify writes as 0) equals 0.
    if (family === 'Float32')
      expect(a === Math.fround(b), `${path}: ${a} vs ${theirs.text} as Float32`).toBe(true)
    else if (family === 'BFloat16')
      expect(a === toBFloat16(b), `${path}: ${a} vs ${theirs.text} as BFloat16`).toBe(true)
    else if (Number.isInteger(b) && !Object.is(b, -0) && Math.abs(b) <= Number.MAX_SAFE_INTEGER)
      expect((ours as JsonNumber).text, path).toBe(theirs.text)
    // A float: the same double (JSON.stringify writes exponents as 1e+21). Inside Dynamic,
    // Variant or JSON the type is not known here: a Float32 there is the Float32 of the text.
    else
      expect(a === b || (typeHidden(family) && a === Math.fround(b)), `${path}: ${a} vs ${theirs.text}`).toBe(
        true,
      )
    return
  }
  if (theirs instanceof JsonObject) {
    expect(ours, path).toBeInstanceOf(JsonObject)
    let mine = ours as JsonObject
    let entries = theirs.entries
    if (family === 'Map') {
      // A JS object lists integer-like keys first, ascending, whatever the Map's order:
      // the entries are compared in key order.
      const byKey = (a: readonly [string, JsonNode], b: readonly [string, JsonNode]) =>
        a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0
      mine = new JsonObject([...mine.entries].sort(byKey))
      entries = [...entries].sort(byKey)
    }
    expect(
      mine.entries.map(([key]) => key),
      path,
    ).toEqual(entries.map(([key]) => key))
    const args = node ? typeArguments(node) : []
    entries.forEach(([key, value], index) => {
      // Map(K, V): values of V; a named Tuple: its element types in order; JSON: unknown.
      const valueType = family === 'Map' ? args[1] : family === 'Tuple' ? args[index] : undefined
      expectSame(mine.entries[index]![1], value, valueType, `${path}.${key}`)
    })
    return
  }
  if (Array.isArray(theirs)) {
    expect(Array.isArray(ours), `${path}: ${JSON.stringify(ours)} is an array`).toBe(true)
    const mine = ours as JsonNode[]
    expect(mine.length, path).toBe(theirs.length)
    const args = node ? typeArguments(node) : []
    theirs.forEach((value, index) => {
      const elementType =
        family === 'Array'
          ? args[0]
          : family === 'Tuple'
            ? args[index]
            : family === 'Point'
              ? node
              : undefined
      expectSame(
        mine[index]!,
        value,
        family === 'Point' ? parseType('Float64') : elementType,
        `${path}[${index}]`,
      )
    })
    return
  }
  expect(ours, path).toEqual(theirs)
}

/** Runs `sql` through clickwire and on the server, and compares every row's JSON. */
async function compareRows(transport: (typeof transports)[number], sql: string): Promise<number> {
  const ch = clientFor(transport)
  try {
    const rs = await ch.query<RowObject>(sql)
    const types = new Map(rs.meta.map((column) => [column.name, column.typeNode]))
    const rows = await rs.rows()
    const lines = await serverJson(sql)
    expect(rows).toHaveLength(lines.length)
    rows.forEach((row, index) => {
      const ours = parseLossless(JSON.stringify(row, jsonReplacer)) as JsonObject
      const theirs = parseLossless(lines[index]!) as JsonObject
      expect(
        ours.entries.map(([key]) => key),
        `row ${index}`,
      ).toEqual(theirs.entries.map(([key]) => key))
      for (const [key, value] of theirs.entries) {
        expectSame(ours.get(key)!, value, types.get(key), `row ${index} ${key}`)
      }
    })
    return rows.length
  } finally {
    await ch.close()
  }
}

/** The case's rows as one SELECT of (id, v), each value cast to the column type. */
function caseSelect(c: ModernCase): string {
  const cast = c.cast ?? c.type
  const rows = c.values
    .map((value, i) => `SELECT toUInt32(${i + 1}) AS id, CAST(${value} AS ${cast}) AS v`)
    .join(' UNION ALL ')
  return `SELECT id, v FROM (${rows}) ORDER BY id`
}

describe.each(transports)('JSON.stringify(rows, jsonReplacer) over %s', (transport) => {
  it('equals the server JSONEachRow for every type of the catalog', async () => {
    const table = uniqueTable('json_catalog')
    await serverRun(`CREATE TABLE ${table} (${catalogDefinitions()}) ENGINE = Memory`)
    try {
      for (const row of catalogValues()) await serverRun(`INSERT INTO ${table} VALUES ${row}`)
      const compared = await compareRows(transport, `SELECT * FROM ${table} ORDER BY i8`)
      expect(compared).toBe(3)
      expect(catalog.length).toBeGreaterThan(40)
    } finally {
      await serverRun(`DROP TABLE IF EXISTS ${table}`)
    }
  })

  it('equals the server for counts, 64-bit extremes, NaN and infinities', async () => {
    const sql = [
      'SELECT count() AS n, toInt64(-9223372036854775808) AS min, toUInt64(18446744073709551615) AS max,',
      '[toInt64(1), -2] AS a, nan AS fnan, inf AS finf, -inf AS fninf, toFloat32(0.1) AS f32,',
      "'a/b\\\\\"\\n' AS s FROM (SELECT number FROM system.numbers LIMIT 3)",
    ].join(' ')
    expect(await compareRows(transport, sql)).toBe(1)
  })

  it('writes decimals with every digit of their scale, as the server does with output_format_decimal_trailing_zeros = 1', async () => {
    await using ch = clientFor(transport)
    const sql = 'SELECT toDecimal64(-1.5, 3) AS d, toDecimal32(2, 2) AS e, toDecimal128(0.25, 4) AS f'
    const ours = JSON.stringify((await (await ch.query(sql)).rows())[0], jsonReplacer)
    expect(ours).toBe('{"d":"-1.500","e":"2.00","f":"0.2500"}')
    if (modern) {
      // 26.x drops trailing zeros by default; with the setting its text is ours.
      const quoted = { output_format_json_quote_decimals: '1' }
      expect(await serverRun(`${sql} FORMAT JSONEachRow`, quoted)).toBe('{"d":"-1.5","e":"2","f":"0.25"}\n')
      expect(
        await serverRun(`${sql} FORMAT JSONEachRow`, {
          ...quoted,
          output_format_decimal_trailing_zeros: '1',
        }),
      ).toBe(`${ours}\n`)
    } else {
      // 18.16 always prints every digit, unquoted (it has neither setting).
      expect(await serverRun(`${sql} FORMAT JSONEachRow`)).toBe('{"d":-1.500,"e":2.00,"f":0.2500}\n')
    }
  })

  for (const c of modernCases) {
    it.skipIf(!modern)(`equals the server for ${c.name}: ${c.type} (modern only)`, async () => {
      expect(await compareRows(transport, caseSelect(c))).toBe(c.values.length)
    })
  }
})
