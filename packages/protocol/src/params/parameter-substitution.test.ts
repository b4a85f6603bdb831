import { parameterCases } from '@clickwire/testing'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { UsageError } from '../errors/usage-error.js'
import { parseType } from '../types/type-parser.js'
import { maxQuerySizeOf, parameterLiteral, substituteParameters } from './parameter-substitution.js'
import { scanPlaceholders } from './placeholder-scanner.js'

describe('parameterLiteral', () => {
  for (const c of parameterCases) {
    it(`${c.type} ${JSON.stringify(String(c.value))}`, () => {
      expect(parameterLiteral(parseType(c.type), c.value)).toBe(c.sql)
    })
  }

  it('backquotes an Identifier', () => {
    expect(parameterLiteral(parseType('Identifier'), 'my `t`\\')).toBe('`my \\`t\\`\\\\`')
  })
})

describe('substituteParameters', () => {
  it('replaces each placeholder with a literal of its declared type', () => {
    expect(
      substituteParameters('SELECT * FROM t WHERE d < {d:Date} AND id IN {ids:Array(UInt64)}', {
        d: '2017-01-04',
        ids: [1n, 2n],
      }),
    ).toBe("SELECT * FROM t WHERE d < CAST('2017-01-04' AS Date) AND id IN CAST(['1', '2'] AS Array(UInt64))")
  })

  it('returns SQL without placeholders unchanged', () => {
    const sql = "SELECT '{x:String}' -- {y:String}\n, {'k': 1}"
    expect(substituteParameters(sql, { x: 'a', y: 'b' })).toBe(sql)
  })

  it('substitutes in one pass: a value that looks like a placeholder stays a value', () => {
    expect(substituteParameters('SELECT {a:String}, {b:String}', { a: '{b:String}', b: "'{a:String}" })).toBe(
      "SELECT '{b:String}', '\\'{a:String}'",
    )
  })

  it('keeps substituted expressions from fusing with their neighbours', () => {
    expect(substituteParameters('SELECT {a:String}{b:String}', { a: 'x', b: 'y' })).toBe("SELECT 'x' 'y'")
    expect(substituteParameters('SELECT x IN{a:Array(UInt8)}AND 1', { a: [] })).toBe(
      'SELECT x IN CAST([] AS Array(UInt8)) AND 1',
    )
    expect(substituteParameters('SELECT 1-{a:Int8}', { a: -1 })).toBe("SELECT 1-CAST('-1' AS Int8)")
    expect(substituteParameters('SELECT * FROM {db:Identifier}.{t:Identifier}', { db: 'd', t: 't' })).toBe(
      'SELECT * FROM `d`.`t`',
    )
  })

  it('substitutes every occurrence of a name', () => {
    expect(substituteParameters('SELECT {x:UInt8} + {x:UInt8}', { x: 1 })).toBe(
      "SELECT CAST('1' AS UInt8) + CAST('1' AS UInt8)",
    )
  })

  it('names the placeholder without a value and ignores values without a placeholder', () => {
    expect(() => substituteParameters('SELECT {x:UInt8}', { y: 1 })).toThrow(
      new UsageError('no value for placeholder {x:UInt8} at offset 7'),
    )
    expect(substituteParameters('SELECT 1', { y: 1 })).toBe('SELECT 1')
  })

  it('prints canonical type names that old servers know', () => {
    expect(substituteParameters('SELECT {x:INT UNSIGNED}, {y:Nullable(TEXT)}', { x: 1, y: null })).toBe(
      "SELECT CAST('1' AS UInt32), CAST(NULL AS Nullable(String))",
    )
  })

  it('produces a literal the lexer reads as one string token, whatever the string', () => {
    const pieces = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        "'",
        "''",
        '\\',
        '\\\\',
        '\0',
        '\n',
        '\r',
        '\t',
        '{x:String}',
        '{z:UInt8}',
        '$$',
        '--',
        '/*',
        '*/',
        '# ',
        '"',
        '`',
      ),
    )
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join('')),
        (value) => {
          const sql = substituteParameters('SELECT {x:String}, {z:UInt8}', { x: value, z: 1 })
          const found = scanPlaceholders(`${sql}, {after:UInt8}`)
          expect(found.map((p) => p.name)).toEqual(['after'])
          expect(sql.endsWith(", CAST('1' AS UInt8)")).toBe(true)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('placeholders where old servers take only a number', () => {
  it('substitutes bare integers after LIMIT and OFFSET, and CASTs elsewhere', () => {
    expect(
      substituteParameters('SELECT {a:Int64} FROM t LIMIT {n:UInt64} OFFSET {o:UInt32}', {
        a: 1,
        n: 10,
        o: 5n,
      }),
    ).toBe("SELECT CAST('1' AS Int64) FROM t LIMIT 10 OFFSET 5")
    expect(substituteParameters('SELECT 1 LIMIT 2, {n:Int64}', { n: 3 })).toBe('SELECT 1 LIMIT 2, 3')
    expect(substituteParameters('SELECT 1 limit {o:Int64}, {n:Int64}', { o: 4, n: 3 })).toBe(
      'SELECT 1 limit 4, 3',
    )
    expect(substituteParameters('SELECT f(1, {n:Int64})', { n: 3 })).toBe("SELECT f(1, CAST('3' AS Int64))")
  })
})

describe('substituteParameters within max_query_size', () => {
  it('refuses a text past the limit, naming its size and the setting but no value', () => {
    const value = `hidden-${'y'.repeat(300)}`
    expect(() => substituteParameters('SELECT {p:String}', { p: value }, 200)).toThrow(
      new UsageError(
        `the query is ${'SELECT '.length + value.length + 2} bytes once its {name:Type} parameters are written into its text (this server takes no server-side parameters), past max_query_size = 200: raise max_query_size in the settings, or send large values as an external table or through insert()`,
      ),
    )
    // Bytes, not UTF-16 units: 100 three-byte characters are 300 bytes.
    expect(() => substituteParameters('SELECT {p:String}', { p: '€'.repeat(100) }, 300)).toThrow(
      /is 309 bytes/,
    )
    expect(substituteParameters('SELECT {p:String}', { p: '€'.repeat(97) }, 300)).toBe(
      `SELECT '${'€'.repeat(97)}'`,
    )
    // The default is ClickHouse's 262144.
    expect(() => substituteParameters('SELECT {p:String}', { p: 'z'.repeat(262_144) })).toThrow(
      /max_query_size = 262144/,
    )
  })

  it('takes the limit from the settings, later ones first', () => {
    expect(maxQuerySizeOf()).toBe(262_144)
    expect(maxQuerySizeOf({ max_query_size: 1000 })).toBe(1000)
    expect(maxQuerySizeOf({ max_query_size: '1000' }, { max_query_size: 5000n })).toBe(5000)
    expect(maxQuerySizeOf({ max_query_size: 1000 }, { other: 1 }, undefined)).toBe(1000)
  })
})
