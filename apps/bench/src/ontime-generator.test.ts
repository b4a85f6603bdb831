import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  delayGroup,
  generateDay,
  generatedRowsBefore,
  hhmm,
  type OntimeDay,
  plannedDailyCounts,
  timeBlock,
} from './ontime-generator.js'
import { airports, carriers, states } from './ontime-places.js'
import { ontimeColumns, referenceCutoffs } from './ontime-schema.js'

function digest(day: OntimeDay): string {
  const hash = createHash('sha256')
  for (const [name] of ontimeColumns) {
    const values = day.columns[name]!
    hash.update(name)
    if (Array.isArray(values)) hash.update(values.join('\u0001'))
    else hash.update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength))
  }
  return hash.digest('hex')
}

const plan = plannedDailyCounts()
const rowsOf = (date: string) => plan.find((day) => day.date === date)!.rows
// A calm Sunday holiday, a weekday, and the storm of 2017-01-07 in the South-East.
const sample = ['2017-01-01', '2017-01-05', '2017-01-07'].map((date) => generateDay(date, rowsOf(date)))
const rows = sample.reduce((sum, day) => sum + day.rows, 0)

function share(predicate: (day: OntimeDay, row: number) => boolean): number {
  let count = 0
  for (const day of sample) for (let row = 0; row < day.rows; row++) if (predicate(day, row)) count++
  return count / rows
}

const int = (day: OntimeDay, name: (typeof ontimeColumns)[number][0]) => day.columns[name] as Int32Array
const text = (day: OntimeDay, name: (typeof ontimeColumns)[number][0]) => day.columns[name] as string[]

describe('plannedDailyCounts', () => {
  it('covers 2017-01-01..2017-02-17 and puts each reference cutoff at its row count', () => {
    expect(plan).toHaveLength(48)
    expect(plan[0]!.date).toBe('2017-01-01')
    expect(plan.at(-1)!.date).toBe('2017-02-17')
    for (const cutoff of referenceCutoffs) {
      const generated = generatedRowsBefore(cutoff)
      // Exact by construction; the brief asks for "within a few percent".
      expect(generated).toBe(cutoff.referenceRows)
      expect(Math.abs(generated - cutoff.referenceRows) / cutoff.referenceRows).toBeLessThan(0.03)
    }
  })

  it('flies fewer flights on Saturdays than on weekdays', () => {
    const saturday = rowsOf('2017-01-21')
    const thursday = rowsOf('2017-01-19')
    expect(saturday).toBeLessThan(thursday * 0.9)
    for (const day of plan) expect(day.rows).toBeGreaterThan(11_000)
  })
})

describe('generateDay', () => {
  it('is deterministic: the same date and seed give identical columns, another seed differs', () => {
    const again = generateDay('2017-01-05', rowsOf('2017-01-05'))
    expect(digest(again)).toBe(digest(sample[1]!))
    expect(digest(generateDay('2017-01-05', rowsOf('2017-01-05'), 7))).not.toBe(digest(sample[1]!))
  })

  it('fills every column of the schema with the planned rows and the date fields', () => {
    const day = sample[0]!
    expect(Object.keys(day.columns)).toEqual(ontimeColumns.map(([name]) => name))
    for (const [name] of ontimeColumns) expect(day.columns[name]).toHaveLength(rowsOf('2017-01-01'))
    expect(day.columns.Year[0]).toBe(2017)
    expect(day.columns.DayOfWeek[0]).toBe(7) // a Sunday, BTS numbers Monday 1 .. Sunday 7
    expect(day.columns.FlightDate[0]).toBe(Date.UTC(2017, 0, 1) / 86_400_000)
  })

  it('uses known carriers and airports with their ids, cities, states, FIPS and WAC codes', () => {
    const byCode = new Map(airports.map((airport) => [airport.code, airport]))
    const carrierCodes = new Set(carriers.map((carrier) => carrier.code))
    for (const day of sample) {
      for (let row = 0; row < day.rows; row += 97) {
        expect(carrierCodes.has(text(day, 'Carrier')[row]!)).toBe(true)
        const origin = byCode.get(text(day, 'Origin')[row]!)!
        expect(int(day, 'OriginAirportID')[row]).toBe(origin.id)
        expect(int(day, 'OriginAirportSeqID')[row]).toBe(origin.seqId)
        expect(text(day, 'OriginCityName')[row]).toBe(origin.cityName)
        expect(text(day, 'OriginStateFips')[row]).toBe(states.get(text(day, 'OriginState')[row]!)!.fips)
        expect(int(day, 'OriginWac')[row]).toBe(origin.state.wac)
        expect(text(day, 'Origin')[row]).not.toBe(text(day, 'Dest')[row])
        expect(text(day, 'TailNum')[row]).toMatch(/^N\d{3,4}[A-Z]{1,2}$/)
        expect(text(day, 'FlightNum')[row]).toMatch(/^\d{1,4}$/)
      }
    }
  })

  it('has realistic rates of delays, cancellations and diversions', () => {
    const cancelled = share((day, row) => day.columns.Cancelled[row] === 1)
    const diverted = share((day, row) => day.columns.Diverted[row] === 1)
    const late = share((day, row) => int(day, 'DepDel15')[row] === 1)
    expect(cancelled).toBeGreaterThan(0.005)
    expect(cancelled).toBeLessThan(0.05)
    expect(diverted).toBeGreaterThan(0.0005)
    expect(diverted).toBeLessThan(0.01)
    expect(late).toBeGreaterThan(0.12)
    expect(late).toBeLessThan(0.35)
    // The storm day cancels more than the calm weekday.
    const rate = (day: OntimeDay) =>
      (day.columns.Cancelled as Uint8Array).reduce((a, b) => a + b, 0) / day.rows
    expect(rate(sample[2]!)).toBeGreaterThan(rate(sample[1]!) * 1.5)
  })

  it('keeps times and delays consistent the way BTS records are', () => {
    // Plain checks collected per row (an expect() per value would take seconds).
    const problems: string[] = []
    const check = (ok: boolean, what: string, day: OntimeDay, row: number) => {
      if (!ok && problems.length < 10) problems.push(`${day.date} row ${row}: ${what}`)
    }
    for (const day of sample) {
      for (let row = 0; row < day.rows; row++) {
        for (const name of ['CRSDepTime', 'CRSArrTime'] as const) {
          const time = int(day, name)[row]!
          check(time % 100 < 60 && time >= 1 && time <= 2400, `${name} ${time}`, day, row)
        }
        const code = text(day, 'CancellationCode')[row]!
        if (day.columns.Cancelled[row] === 1) {
          check(int(day, 'DepTime')[row] === 0 && 'ABCD'.includes(code) && code !== '', 'cancelled', day, row)
          continue
        }
        check(code === '', 'code without cancellation', day, row)
        const depDelay = int(day, 'DepDelay')[row]!
        check(int(day, 'DepDelayMinutes')[row] === Math.max(0, depDelay), 'DepDelayMinutes', day, row)
        check(
          text(day, 'DepartureDelayGroups')[row] === String(delayGroup(depDelay)),
          'delay group',
          day,
          row,
        )
        if (day.columns.Diverted[row] === 1) {
          check(text(day, 'Div1Airport')[row] !== '', 'diversion airport', day, row)
          check(/^[12]$/.test(text(day, 'DivAirportLandings')[row]!), 'landings', day, row)
          continue
        }
        const arrDelay = int(day, 'ArrDelay')[row]!
        const elapsed = int(day, 'ActualElapsedTime')[row]!
        check(arrDelay === depDelay + elapsed - int(day, 'CRSElapsedTime')[row]!, 'ArrDelay', day, row)
        check(
          elapsed === int(day, 'TaxiOut')[row]! + int(day, 'AirTime')[row]! + int(day, 'TaxiIn')[row]!,
          'elapsed',
          day,
          row,
        )
        const causes = (
          ['CarrierDelay', 'WeatherDelay', 'NASDelay', 'SecurityDelay', 'LateAircraftDelay'] as const
        )
          .map((name) => int(day, name)[row]!)
          .reduce((a, b) => a + b, 0)
        check(causes === (arrDelay >= 15 ? arrDelay : 0), `causes ${causes} for ${arrDelay}`, day, row)
      }
    }
    expect(problems).toEqual([])
  })

  it('leaves the Div* columns of normal flights empty', () => {
    expect(share((day, row) => text(day, 'Div1Airport')[row] === '')).toBeGreaterThan(0.99)
    expect(
      share((day, row) => text(day, 'Div3Airport')[row] === '' && int(day, 'Div5AirportID')[row] === 0),
    ).toBe(1)
    expect(share((day, row) => text(day, 'DivAirportLandings')[row] === '0')).toBeGreaterThan(0.99)
  })
})

describe('time helpers', () => {
  it('formats BTS times and blocks', () => {
    expect(hhmm(0)).toBe(2400)
    expect(hhmm(65)).toBe(105)
    expect(hhmm(1440 + 725)).toBe(1205)
    expect(hhmm(-10)).toBe(2350)
    expect(timeBlock(5 * 60 + 59)).toBe('0001-0559')
    expect(timeBlock(6 * 60)).toBe('0600-0659')
    expect(timeBlock(23 * 60 + 5)).toBe('2300-2359')
    expect(delayGroup(-16)).toBe(-2)
    expect(delayGroup(-1)).toBe(-1)
    expect(delayGroup(14)).toBe(0)
    expect(delayGroup(15)).toBe(1)
    expect(delayGroup(500)).toBe(12)
  })
})
