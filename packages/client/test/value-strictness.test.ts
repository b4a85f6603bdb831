// A value that the column would store as something else is refused before anything is sent,
// the same on both transports: numeric text is parsed strictly (no spaces, no hex, no
// exponent for integers), and a finite value beyond a float type's range is not made an
// infinity. The server's own rendering is the oracle for what is stored.
import { describe, expect, inject, it } from 'vitest'
import { UsageError } from '../src/index.js'
import { clientFor, thrown, transports, uniqueTable } from './support/transports.js'

describe.each(transports)('value strictness over %s', (transport) => {
  it('refuses loose integer text and out-of-range floats, and stores nothing', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('strict_values')
    await ch.command(`CREATE TABLE ${table} (u UInt32, f Float64) ENGINE = Memory`)
    try {
      for (const [row, shown] of [
        [{ u: ' 12', f: 1 }, /column \[0\] "u" UInt32: row 0: " 12" is not a valid UInt32/],
        [{ u: '0x10', f: 1 }, /row 0: "0x10" is not a valid UInt32/],
        [
          { u: 1, f: 10n ** 400n },
          /column \[1\] "f" Float64: row 0: .* is not a valid Float64 \(out of range\)/,
        ],
        [{ u: 1, f: '1e400' }, /row 0: "1e400" is not a valid Float64 \(out of range\)/],
      ] as const) {
        const error = await thrown(() => ch.insert(table, [row]))
        expect(error).toBeInstanceOf(UsageError)
        expect((error as Error).message).toMatch(shown)
      }
      const rs = await ch.query(`SELECT count() AS n FROM ${table}`)
      expect((await rs.rows())[0]?.n).toBe(0n)
      await ch.insert(table, [{ u: '12', f: 2n ** 40n }])
      const stored = await ch.query(`SELECT toString(u) AS u, toString(f) AS f FROM ${table}`)
      expect(await stored.rows()).toEqual([{ u: '12', f: '1099511627776' }])
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })
  it('refuses a JS number that Float32 or BFloat16 would make an infinity, from arrays and typed arrays, and stores nothing', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('strict_float32')
    await ch.command(`CREATE TABLE ${table} (i UInt8, f Float32) ENGINE = Memory`)
    try {
      for (const [columns, shown] of [
        [
          { i: [1, 2], f: [1.5, 1e39] },
          /column \[1\] "f" Float32: row 1: 1e\+39 is not a valid Float32 \(out of range\)/,
        ],
        [
          { i: [1, 2], f: Float64Array.of(-1e39, 1) },
          /row 0: -1e\+39 is not a valid Float32 \(out of range\)/,
        ],
        [{ i: [1], f: ['1e39'] }, /row 0: "1e39" is not a valid Float32 \(out of range\)/],
      ] as const) {
        const error = await thrown(() => ch.insert(table, columns))
        expect(error).toBeInstanceOf(UsageError)
        expect((error as Error).message).toMatch(shown)
      }
      const rs = await ch.query(`SELECT count() AS n FROM ${table}`)
      expect((await rs.rows())[0]?.n).toBe(0n)
      // What rounds to a finite Float32 is stored, as the server rounds the same text.
      await ch.insert(table, { i: [1, 2, 3], f: [3.4028235e38, -3.4028235e38, Number.NEGATIVE_INFINITY] })
      const stored = await ch.query(
        `SELECT toString(f) AS f, toString(toFloat32('3.4028235e38')) AS server FROM ${table} ORDER BY i`,
      )
      expect(await stored.rows()).toEqual([
        { f: '3.4028235e38', server: '3.4028235e38' },
        { f: '-3.4028235e38', server: '3.4028235e38' },
        { f: '-inf', server: '3.4028235e38' },
      ])
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })

  it.runIf(inject('clickhouse').generation === 'modern')(
    'refuses a number beyond Float32 for BFloat16 too, and stores nothing (26.x)',
    async () => {
      await using ch = clientFor(transport)
      const table = uniqueTable('strict_bfloat16')
      await ch.command(`CREATE TABLE ${table} (b BFloat16) ENGINE = Memory`)
      try {
        const error = await thrown(() => ch.insert(table, { b: [1, 1e39] }))
        expect(error).toBeInstanceOf(UsageError)
        expect((error as Error).message).toMatch(
          /column \[0\] "b" BFloat16: row 1: 1e\+39 is not a valid BFloat16 \(out of range\)/,
        )
        const rs = await ch.query(`SELECT count() AS n FROM ${table}`)
        expect((await rs.rows())[0]?.n).toBe(0n)
        await ch.insert(table, { b: [1.5, -2] })
        const stored = await ch.query(`SELECT toString(b) AS b FROM ${table} ORDER BY b`)
        expect(await stored.rows()).toEqual([{ b: '-2' }, { b: '1.5' }])
      } finally {
        await ch.command(`DROP TABLE IF EXISTS ${table}`)
      }
    },
  )

  it('refuses decimal text with spaces, and stores nothing', async () => {
    await using ch = clientFor(transport)
    const table = uniqueTable('strict_decimal')
    await ch.command(`CREATE TABLE ${table} (d Decimal(9, 2)) ENGINE = Memory`)
    try {
      const error = await thrown(() => ch.insert(table, [{ d: '1.5' }, { d: ' 1.5' }]))
      expect(error).toBeInstanceOf(UsageError)
      expect((error as Error).message).toMatch(
        /column \[0\] "d" Decimal\(9, 2\): row 1: " 1.5" is not a valid Decimal\(9, 2\)/,
      )
      const rs = await ch.query(`SELECT count() AS n FROM ${table}`)
      expect((await rs.rows())[0]?.n).toBe(0n)
    } finally {
      await ch.command(`DROP TABLE IF EXISTS ${table}`)
    }
  })
})
