import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { civilFromDays, daysFromCivil } from './date-time-text.js'
import { timeZone } from './time-zones.js'

/** The offset at `utc` straight from Intl, no caching: the reference. */
function intlOffset(zone: string, utc: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(utc * 1000))
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value)
  const local =
    daysFromCivil(part('year'), part('month'), part('day')) * 86400 +
    (part('hour') % 24) * 3600 +
    part('minute') * 60 +
    part('second')
  return local - utc
}

describe('time zones', () => {
  it('knows fixed zones without Intl, with POSIX signs for Etc/GMT±N', () => {
    expect(timeZone('UTC').fixedOffset).toBe(0)
    expect(timeZone('Etc/UTC').fixedOffset).toBe(0)
    expect(timeZone('').fixedOffset).toBe(0)
    expect(timeZone('Etc/GMT+5').fixedOffset).toBe(-5 * 3600)
    expect(timeZone('Etc/GMT-14').fixedOffset).toBe(14 * 3600)
    expect(timeZone('Europe/Moscow').fixedOffset).toBeUndefined()
  })

  it('finds transitions to the second, also half-hour ones (Lord Howe) and Moscow 2011', () => {
    const cases: [string, number][] = [
      ['America/New_York', 1615705200],
      ['America/New_York', 1636264800],
      ['Australia/Lord_Howe', 1617462000],
      ['Australia/Lord_Howe', 1633188600],
      ['Europe/Moscow', 1301180400],
      ['Europe/Moscow', 1414274400],
    ]
    for (const [name, at] of cases) {
      const zone = timeZone(name)
      expect([name, at, zone.offsetAt(at - 1), zone.offsetAt(at)]).toEqual([
        name,
        at,
        intlOffset(name, at - 1),
        intlOffset(name, at),
      ])
      expect(zone.offsetAt(at - 1)).not.toBe(zone.offsetAt(at))
    }
  })

  it('agrees with Intl at random instants from 1900 to 2300', () => {
    const zones = [
      'America/New_York',
      'Europe/Moscow',
      'Australia/Lord_Howe',
      'Asia/Kolkata',
      'America/Sao_Paulo',
    ]
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: -2208988800, max: 10413791999 }),
        (name, utc) => {
          expect(timeZone(name).offsetAt(utc)).toBe(intlOffset(name, utc))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('reads local times as ClickHouse does: repeated ones as the earlier instant, skipped ones with the new offset', () => {
    const newYork = timeZone('America/New_York')
    const local = (text: string) => Date.parse(`${text}Z`) / 1000
    // chdb: toUnixTimestamp(toDateTime(x, 'America/New_York')) for these x.
    expect(newYork.utcOf(local('2021-03-14T02:30:00'))).toBe(1615703400)
    expect(newYork.utcOf(local('2021-11-07T01:30:00'))).toBe(1636263000)
    expect(newYork.utcOf(local('2021-11-07T02:30:00'))).toBe(1636270200)
    expect(newYork.utcOf(local('2021-11-07T00:30:00'))).toBe(1636259400)
    // chdb: toDateTime('1981-04-01 00:30:00', 'Europe/Moscow') = 354918600 (a midnight change).
    expect(timeZone('Europe/Moscow').utcOf(local('1981-04-01T00:30:00'))).toBe(354918600)
  })

  it('rejects unknown zones', () => {
    expect(() => timeZone('Nowhere/Special')).toThrow(/unknown time zone "Nowhere\/Special"/)
  })
})

describe('civil calendar', () => {
  it('converts days and dates both ways across years 0 to 9999', () => {
    const out = new Int32Array(3)
    fc.assert(
      fc.property(fc.integer({ min: -719528, max: 2932896 }), (days) => {
        civilFromDays(days, out)
        expect(daysFromCivil(out[0]!, out[1]!, out[2]!)).toBe(days)
        if (out[0]! >= 1) {
          const date = new Date(days * 86400000)
          expect([out[0], out[1], out[2]]).toEqual([
            date.getUTCFullYear(),
            date.getUTCMonth() + 1,
            date.getUTCDate(),
          ])
        }
      }),
      { numRuns: 2000 },
    )
  })
})
