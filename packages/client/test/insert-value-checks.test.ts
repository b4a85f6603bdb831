// What insert() says of values a column cannot hold exactly, the same on both transports:
// a number and its text are one value for a Decimal (1.005 and '1.005' are both refused
// for Decimal(10, 2), since no server stores them exactly: 18.16 refuses the text, 26.x
// drops the digit), and a fraction for an integer column is "not an integer".
import { describe, expect, it } from 'vitest'
import { UsageError } from '../src/index.js'
import { serverRun } from './support/server-oracle.js'
import { clientFor, server, thrown, transports, uniqueTable } from './support/transports.js'

const modern = server.generation === 'modern'

/** `toString` of what the server makes of `text` as a Decimal(10, 2), or its error. */
async function serverDecimal(text: string): Promise<string> {
  try {
    return (await serverRun(`SELECT toString(CAST('${text}' AS Decimal(10, 2))) FORMAT TSV`)).trim()
  } catch (error) {
    return `error: ${(error as Error).message}`
  }
}

describe('the server, as the oracle', () => {
  it('cannot store 1.005 as a Decimal(10, 2): 18.16 refuses the text, 26.x drops the digit', async () => {
    const stored = await serverDecimal('1.005')
    if (modern) expect(stored).toBe('1')
    else expect(stored).toMatch(/^error: .*Decimal value is too small/)
  })
})

describe.each(transports)('insert value checks over %s', (transport) => {
  it('refuses a number and a string with digits past the scale alike, and sends nothing', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('decimal_checks')
    await ch.command(`CREATE TABLE ${table} (d Decimal(10, 2)) ENGINE = Memory`)
    try {
      for (const [value, shown] of [
        [1.005, '1.005'],
        ['1.005', '"1.005"'],
        [-1.005, '-1.005'],
        ['-1.005', '"-1.005"'],
      ] as const) {
        const error = await thrown(() => ch.insert(table, [{ d: 1.5 }, { d: value }]))
        expect(UsageError.isInstance(error), String(error)).toBe(true)
        expect((error as Error).message).toBe(
          `column [0] "d" Decimal(10, 2): row 1: ${shown} is not a valid Decimal(10, 2) (more than 2 digits after the point; round it first)`,
        )
      }
      expect(await serverRun(`SELECT count() FROM ${table} FORMAT TSV`)).toBe('0\n')
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })

  it('stores numbers and strings within the scale as the server parses the same text', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('decimal_values')
    await ch.command(`CREATE TABLE ${table} (id UInt8, d Decimal(10, 2)) ENGINE = Memory`)
    try {
      const inputs: (number | string)[] = [1.25, '1.25', 1.5, '1.500', -0.01, '-0.01', 12345678.9, '0']
      await ch.insert(
        table,
        inputs.map((d, id) => ({ id, d })),
      )
      const stored = (await serverRun(`SELECT toString(d) FROM ${table} ORDER BY id FORMAT TSV`))
        .trim()
        .split('\n')
      const oracle = await Promise.all(inputs.map((input) => serverDecimal(String(input))))
      expect(stored).toEqual(oracle)
      // A number and its text land as the same value.
      expect(stored[0]).toBe(stored[1])
      expect(stored[2]).toBe(stored[3])
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })

  it('says a fraction for an integer column is not an integer', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('integer_checks')
    await ch.command(`CREATE TABLE ${table} (u UInt8) ENGINE = Memory`)
    try {
      const fraction = await thrown(() => ch.insert(table, [{ u: 1 }, { u: 1.5 }]))
      expect(UsageError.isInstance(fraction)).toBe(true)
      expect((fraction as Error).message).toBe(
        'column [0] "u" UInt8: row 1: 1.5 is not a valid UInt8 (not an integer)',
      )
      const beyond = await thrown(() => ch.insert(table, [{ u: 256 }]))
      expect((beyond as Error).message).toBe(
        'column [0] "u" UInt8: row 0: 256 is not a valid UInt8 (out of range)',
      )
      expect(await serverRun(`SELECT count() FROM ${table} FORMAT TSV`)).toBe('0\n')
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })
})

describe.each(transports)('rows with different keys over %s', (transport) => {
  it('names the key a row lacks and the key that is no column, and sends nothing', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('row_keys')
    await ch.command(
      `CREATE TABLE ${table} (a UInt8, b String DEFAULT 'dflt', n Nullable(UInt8)) ENGINE = Memory`,
    )
    try {
      const missing = await thrown(() => ch.insert(table, [{ a: 1, b: 'x' }, { a: 2 }]))
      expect(UsageError.isInstance(missing), String(missing)).toBe(true)
      expect((missing as Error).message).toBe(
        `row 1 has no key "b" (column b String): give every row the same keys; a column's DEFAULT is used only when the insert leaves the column out for every row (leave the key out of all rows, or out of options.columns)`,
      )
      const unknown = await thrown(() => ch.insert(table, [{ a: 1 }, { a: 2, c: 3 }]))
      expect(UsageError.isInstance(unknown), String(unknown)).toBe(true)
      expect((unknown as Error).message).toBe(
        'row 1 has a key "c" that is not a column of this insert (a): give every row the same keys, or pass options.columns to choose the columns',
      )
      // A key of the first row that is no column: the server's own error names it.
      const first = await thrown(() => ch.insert(table, [{ a: 1, c: 3 }]))
      expect((first as { code?: number }).code).toBe(16)
      expect((first as Error).message).toContain('No such column c in table')
      expect(await serverRun(`SELECT count() FROM ${table} FORMAT TSV`)).toBe('0\n')
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })

  it('fills the DEFAULT of a column no row has, NULL for a Nullable key a row leaves out, and lets options.columns pick keys', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('row_defaults')
    await ch.command(
      `CREATE TABLE ${table} (a UInt8, b String DEFAULT 'dflt', n Nullable(UInt8)) ENGINE = Memory`,
    )
    try {
      await ch.insert(table, [{ a: 1, n: 3 }, { a: 2 }])
      await ch.insert(
        table,
        [
          { a: 3, b: 'x', extra: 1 },
          { a: 4, other: 2 },
        ],
        { columns: ['a'] },
      )
      expect(await serverRun(`SELECT a, b, n FROM ${table} ORDER BY a FORMAT TSV`)).toBe(
        '1\tdflt\t3\n2\tdflt\t\\N\n3\tdflt\t\\N\n4\tdflt\t\\N\n',
      )
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })
})
