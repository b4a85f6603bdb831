// A value that the column would store as something else is refused before anything is sent,
// the same on both transports: numeric text is parsed strictly (no spaces, no hex, no
// exponent for integers), and a finite value beyond a float type's range is not made an
// infinity. The server's own rendering is the oracle for what is stored.
import { describe, expect, it } from 'vitest'
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
})
