import { chdbQuery, chdbQueryWithParameters, clickhouseClient, parameterCases } from '@clickwire/testing'
import fc from 'fast-check'
import { describe, expect, inject, it } from 'vitest'
import { parameterLiteral, substituteParameters } from '../src/params/parameter-substitution.js'
import { scanPlaceholders } from '../src/params/placeholder-scanner.js'
import { serverParameters } from '../src/params/server-parameters.js'
import { quoteSqlString } from '../src/sql/sql-quoting.js'
import { parseType } from '../src/types/type-parser.js'
import { httpQueryText } from './support/http-query-text.js'

const server = inject('clickhouse')
const legacyCases = parameterCases.filter((c) => c.legacy !== undefined)

/** Upper-case hex of a string's UTF-8 bytes, as ClickHouse's hex() prints it. */
function utf8Hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex').toUpperCase()
}

/** Strings rich in what breaks escaping: quotes, backslashes, control characters, look-alikes. */
const trickyStrings = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.string({ unit: 'binary-ascii', maxLength: 8 }),
      fc.constantFrom(
        "'",
        "''",
        '\\',
        "\\'",
        '\0',
        '\n',
        '\r',
        '\t',
        '\x7f',
        '{v:String}',
        '{w:UInt8}',
        '$$',
        '--',
        '/*',
        '# ',
        '"',
        '`',
        '\\N',
        '😀',
      ),
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(''))

/** Little-endian hex of a float's bits without trailing zero bytes (reinterpretAsString drops them). */
function floatBits(value: number, width: 4 | 8): string {
  const bytes = new Uint8Array(
    width === 8 ? new Float64Array([value]).buffer : new Float32Array([value]).buffer,
  )
  return Buffer.from(bytes)
    .toString('hex')
    .toUpperCase()
    .replace(/(00)+$/, '')
}

const finiteDoubles = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e-300, max: 1e-300 }),
  fc.integer().map((n) => n / 1000),
)

describe.runIf(server.version.startsWith('18.'))('client-side substitution on ClickHouse 18.16', () => {
  it('cannot take server-side parameters, which is why the client substitutes', async () => {
    await expect(httpQueryText(server.httpUrl, 'SELECT {x:UInt8}', '?param_x=1')).rejects.toThrow(
      /Unknown setting param_x/,
    )
  })

  it('round-trips every case exactly, with the declared type, over HTTP', async () => {
    for (const c of legacyCases) {
      const sql = substituteParameters(`SELECT {v:${c.type}} AS v, toTypeName(v) FORMAT TabSeparated`, {
        v: c.value,
      })
      expect(await httpQueryText(server.httpUrl, sql), c.type).toBe(`${c.legacy}\n`)
    }
  })

  it('round-trips every case through the C++ clickhouse-client (native protocol)', async () => {
    const columns = legacyCases.map(
      (c, i) => `${parameterLiteral(parseType(c.type), c.value)} AS v${i}, toTypeName(v${i})`,
    )
    const output = await clickhouseClient(server, `SELECT ${columns.join(', ')} FORMAT TabSeparated`)
    expect(output).toBe(`${legacyCases.map((c) => c.legacy).join('\t')}\n`)
  })

  it('round-trips random strings unchanged, and never substitutes inside them', async () => {
    await fc.assert(
      fc.asyncProperty(trickyStrings, async (value) => {
        const sql = substituteParameters("SELECT hex({v:String}), '{v:String}' FORMAT TabSeparated", {
          v: value,
        })
        expect(await httpQueryText(server.httpUrl, sql)).toBe(`${utf8Hex(value)}\t{v:String}\n`)
      }),
      { numRuns: 200 },
    )
  })

  it('round-trips random strings through the C++ client in one query', async () => {
    const values = fc.sample(trickyStrings, 60)
    const sql = `SELECT ${values.map((_, i) => `hex({v${i}:String})`).join(', ')} FORMAT TabSeparated`
    const params = Object.fromEntries(values.map((value, i) => [`v${i}`, value]))
    const output = await clickhouseClient(server, substituteParameters(sql, params))
    expect(output).toBe(`${values.map(utf8Hex).join('\t')}\n`)
  })

  it('round-trips random strings inside arrays and tuples', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(trickyStrings, { maxLength: 4 }), trickyStrings, async (list, single) => {
        const sql = substituteParameters(
          'SELECT arrayMap(x -> hex(x), {a:Array(String)}), hex(tupleElement({t:Tuple(String, Nullable(String))}, 1)) FORMAT TabSeparated',
          { a: list, t: [single, null] },
        )
        const hexes = list.map((item) => `'${utf8Hex(item)}'`).join(',')
        expect(await httpQueryText(server.httpUrl, sql)).toBe(`[${hexes}]\t${utf8Hex(single)}\n`)
      }),
      { numRuns: 40 },
    )
  })

  it('round-trips random decimals exactly', async () => {
    const decimals = fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 10n ** 28n - 1n }),
        fc.bigInt({ min: 0n, max: 10n ** 10n - 1n }),
      )
      .map(
        ([negative, whole, fraction]) =>
          `${negative ? '-' : ''}${whole}.${String(fraction).padStart(10, '0')}`,
      )
    await fc.assert(
      fc.asyncProperty(decimals, async (text) => {
        const sql = substituteParameters('SELECT {v:Decimal(38, 10)} FORMAT TabSeparated', { v: text })
        const expected = /^-0\.0+$/.test(text) ? text.slice(1) : text
        expect(await httpQueryText(server.httpUrl, sql)).toBe(`${expected}\n`)
      }),
      { numRuns: 40 },
    )
  })

  it('round-trips arbitrary bytes (not UTF-8) as String', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 40 }), async (bytes) => {
        const sql = substituteParameters('SELECT hex({v:String}) FORMAT TabSeparated', { v: bytes })
        expect(await httpQueryText(server.httpUrl, sql)).toBe(
          `${Buffer.from(bytes).toString('hex').toUpperCase()}\n`,
        )
      }),
      { numRuns: 50 },
    )
  })

  it('round-trips random Float64 and Float32 values bit for bit', async () => {
    const doubles = [
      ...fc.sample(finiteDoubles, 150),
      5e-324,
      -2.5e-320,
      2.2250738585072014e-308,
      2 ** 60,
      -0,
    ]
    const sql64 = `SELECT ${doubles.map((_, i) => `hex(reinterpretAsString({d${i}:Float64}))`).join(', ')} FORMAT TabSeparated`
    const params64 = Object.fromEntries(doubles.map((value, i) => [`d${i}`, value]))
    const output64 = await httpQueryText(server.httpUrl, substituteParameters(sql64, params64))
    expect(output64).toBe(`${doubles.map((value) => floatBits(value, 8)).join('\t')}\n`)

    const floats = [
      ...fc.sample(fc.float({ noNaN: true, noDefaultInfinity: true }), 100),
      16777217,
      1e-45,
      -3.4e38,
    ]
    const sql32 = `SELECT ${floats.map((_, i) => `hex(reinterpretAsString({f${i}:Float32}))`).join(', ')} FORMAT TabSeparated`
    const params32 = Object.fromEntries(floats.map((value, i) => [`f${i}`, value]))
    const output32 = await httpQueryText(server.httpUrl, substituteParameters(sql32, params32))
    expect(output32).toBe(`${floats.map((value) => floatBits(Math.fround(value), 4)).join('\t')}\n`)
  })
})

describe('server-side parameters and client-side substitution agree (chdb, ClickHouse 26)', () => {
  /** Runs `sql` both ways with the same values; returns the server-side output after checking equality. */
  async function bothWays(sql: string, params: Record<string, unknown>): Promise<string> {
    const sent = serverParameters(sql, params)
    // SET param_ persists in chdb's session: every placeholder must have been set just now.
    expect(sent.map((p) => p.name).sort()).toEqual(
      [...new Set(scanPlaceholders(sql).map((p) => p.name))].sort(),
    )
    const serverSide = await chdbQueryWithParameters(sql, sent, quoteSqlString)
    const clientSide = await chdbQuery(substituteParameters(sql, params))
    expect(clientSide, sql).toBe(serverSide)
    return serverSide
  }

  it('gives identical values and types for every case, including types 18.16 lacks', async () => {
    for (const c of parameterCases) {
      const output = await bothWays(`SELECT {v:${c.type}} AS v, toTypeName(v)`, { v: c.value })
      expect(output.split('\t').length, c.type).toBe(2)
    }
  })

  it('gives the values the JS side means, for a sample of modern types', async () => {
    const output = await bothWays(
      "SELECT {a:DateTime64(3, 'UTC')}, {b:Bool}, {c:IPv6}, {d:Map(String, Int128)}, {e:Int256}, {f:UUID}",
      {
        a: new Date('2017-01-01T00:00:00.123Z'),
        b: false,
        c: '::FFFF:1.2.3.4',
        d: new Map([['k', -(2n ** 127n)]]),
        e: 2n ** 255n - 1n,
        f: '61f0c404-5cb3-11e7-907b-a6006ad3dba0',
      },
    )
    expect(output).toBe(
      "2017-01-01 00:00:00.123\tfalse\t::ffff:1.2.3.4\t{'k':-170141183460469231731687303715884105728}\t57896044618658097711785492504343953926634992332820282019728792003956564819967\t61f0c404-5cb3-11e7-907b-a6006ad3dba0\n",
    )
  })

  it('handles several parameters, repeated names and look-alikes in one query', async () => {
    const output = await bothWays(
      "SELECT {s:String} AS a, '{s:String}' AS b, {s:String} = a AS c, {n:Nullable(UInt8)} AS d, {ids:Array(UInt64)} AS e",
      { s: "{n:Nullable(UInt8)}'\\", n: null, ids: [1n, 18446744073709551615n] },
    )
    expect(output).toBe("{n:Nullable(UInt8)}\\'\\\\\t{s:String}\t1\t\\N\t[1,18446744073709551615]\n")
  })

  it('gives identical strings for random text', async () => {
    await fc.assert(
      fc.asyncProperty(trickyStrings, async (value) => {
        const output = await bothWays('SELECT hex({v:String}), {v:String} = {w:String}', {
          v: value,
          w: value,
        })
        expect(output).toBe(`${utf8Hex(value)}\t1\n`)
      }),
      { numRuns: 200 },
    )
  })

  it('gives identical strings inside arrays, tuples and maps', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(trickyStrings, { maxLength: 4 }), trickyStrings, async (list, key) => {
        const output = await bothWays(
          'SELECT arrayMap(x -> hex(x), {a:Array(String)}), hex(tupleElement({t:Tuple(String, UInt8)}, 1)), hex(mapKeys({m:Map(String, UInt8)})[1])',
          { a: list, t: [key, 1], m: { [key]: 1 } },
        )
        const hexes = list.map((item) => `'${utf8Hex(item)}'`).join(',')
        expect(output).toBe(`[${hexes}]\t${utf8Hex(key)}\t${utf8Hex(key)}\n`)
      }),
      { numRuns: 40 },
    )
  })

  it('gives identical bytes for arbitrary binary strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 40 }), async (bytes) => {
        const output = await bothWays('SELECT hex({v:String}), hex({f:FixedString(40)})', {
          v: bytes,
          f: bytes,
        })
        const hex = Buffer.from(bytes).toString('hex').toUpperCase()
        expect(output).toBe(`${hex}\t${hex.padEnd(80, '0')}\n`)
      }),
      { numRuns: 40 },
    )
  })

  it('gives identical floats, bit for bit', async () => {
    await fc.assert(
      fc.asyncProperty(finiteDoubles, fc.float(), async (double, float) => {
        const output = await bothWays(
          'SELECT reinterpretAsUInt64({d:Float64}), reinterpretAsUInt32({f:Float32}), isNaN({f:Float32})',
          { d: double, f: float },
        )
        const bits64 = new BigUint64Array(new Float64Array([double]).buffer)[0]
        const bits32 = new Uint32Array(new Float32Array([float]).buffer)[0]
        const [b64, b32, nan] = output.trim().split('\t')
        expect(b64).toBe(String(bits64))
        if (Number.isNaN(float)) expect(nan).toBe('1')
        else expect(b32).toBe(String(bits32))
      }),
      { numRuns: 100 },
    )
  })

  it('gives identical instants for random JS Dates in DateTime and DateTime64 of several zones', async () => {
    const dates = fc.date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2105-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    await fc.assert(
      fc.asyncProperty(dates, async (date) => {
        const output = await bothWays(
          "SELECT toUnixTimestamp({a:DateTime('Asia/Kolkata')}), toUnixTimestamp64Milli({b:DateTime64(3, 'America/St_Johns')}), toUnixTimestamp64Milli({c:DateTime64(3)})",
          { a: date, b: date, c: date },
        )
        const ms = date.getTime()
        expect(output).toBe(`${Math.floor(ms / 1000)}\t${ms}\t${ms}\n`)
      }),
      { numRuns: 40 },
    )
  })

  it('gives identical instants for DateTime64 before 1970 and with every precision', async () => {
    const dates = fc.oneof(
      fc.date({
        min: new Date('1900-01-02T00:00:00Z'),
        max: new Date('2262-01-01T00:00:00Z'),
        noInvalidDate: true,
      }),
      fc.integer({ min: -2000, max: 1000 }).map((ms) => new Date(ms)),
    )
    await fc.assert(
      fc.asyncProperty(dates, async (date) => {
        // The second before 1970 can only be sent to a UTC type (see time-parameters.ts).
        const zone = date.getTime() < 0 && date.getTime() > -1000 ? 'UTC' : 'Asia/Kolkata'
        const output = await bothWays(
          `SELECT toUnixTimestamp64Milli({a:DateTime64(3, '${zone}')}), toUnixTimestamp64Micro({b:DateTime64(6, '${zone}')}), toUnixTimestamp64Nano({c:DateTime64(9, 'UTC')}), toUnixTimestamp64Milli(CAST({d:DateTime64(0, 'UTC')} AS DateTime64(3)))`,
          { a: date, b: date, c: date, d: date },
        )
        const ms = BigInt(date.getTime())
        const floorSeconds = (ms - (((ms % 1000n) + 1000n) % 1000n)) / 1000n
        expect(output).toBe(`${ms}\t${ms * 1000n}\t${ms * 1000000n}\t${floorSeconds * 1000n}\n`)
      }),
      { numRuns: 40 },
    )
  })
})
