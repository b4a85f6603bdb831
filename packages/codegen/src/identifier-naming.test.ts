import { CamelCasePlugin } from 'kysely'
import { describe, expect, it } from 'vitest'
import {
  camelCaseKey,
  kyselyCamelCase,
  kyselySnakeCase,
  pascalCaseName,
  tsPropertyKey,
  uniqueTypeNames,
} from './identifier-naming.js'

/** Kysely's own conversions, reached through the protected methods a subclass may call. */
class KyselyConversions extends CamelCasePlugin {
  camel(text: string): string {
    return this.camelCase(text)
  }
  snake(text: string): string {
    return this.snakeCase(text)
  }
}

const names = [
  'flight_date',
  'FlightDate',
  'a',
  '',
  'a__b',
  '_leading',
  'trailing_',
  'with_1_digit',
  'x1_y2',
  'already_camelCase',
  'ABC',
  'a_b_c',
  'n.x',
  'weird name',
  'straße_maß',
  'ǅ_title',
  'İ_dotted',
  'col_ünicode',
]

describe('Kysely CamelCasePlugin conversions', () => {
  it('camel and snake case agree with the plugin for every sample name', () => {
    const kysely = new KyselyConversions()
    for (const name of names) {
      expect([name, kyselyCamelCase(name)]).toEqual([name, kysely.camel(name)])
      expect([name, kyselySnakeCase(name)]).toEqual([name, kysely.snake(name)])
      const camel = kysely.camel(name)
      expect([camel, kyselySnakeCase(camel)]).toEqual([camel, kysely.snake(camel)])
    }
  })

  it('gives a key only for names the plugin can reach', () => {
    expect(camelCaseKey('flight_date')).toBe('flightDate')
    expect(camelCaseKey('dep_delay_minutes')).toBe('depDelayMinutes')
    expect(camelCaseKey('plain')).toBe('plain')
    expect(camelCaseKey('x1_y2')).toBe('x1Y2')
    // `aBC` goes back as `a_bc`, `with1Digit` as `with1_digit`: unreachable.
    expect(camelCaseKey('a_b_c')).toBeUndefined()
    expect(camelCaseKey('with_1_digit')).toBeUndefined()
    expect(camelCaseKey('FlightDate')).toBeUndefined()
    expect(camelCaseKey('a__b')).toBeUndefined()
    expect(camelCaseKey('trailing_')).toBeUndefined()
    const kysely = new KyselyConversions()
    for (const name of names) {
      const key = camelCaseKey(name)
      if (key !== undefined) expect([name, kysely.snake(key)]).toEqual([name, name])
    }
  })
})

describe('type names', () => {
  it('PascalCases words and keeps case inside a word', () => {
    expect(pascalCaseName(['ontime'])).toBe('Ontime')
    expect(pascalCaseName(['all_types'])).toBe('AllTypes')
    expect(pascalCaseName(['perftest', 'OnTime'])).toBe('PerftestOnTime')
    expect(pascalCaseName(['weird name.x'])).toBe('WeirdNameX')
    expect(pascalCaseName(['2024_events'])).toBe('Table2024Events')
    expect(pascalCaseName(['---'])).toBe('Table')
    expect(pascalCaseName(['таблица'])).toBe('Таблица')
  })

  it('makes names unique and keeps clear of names the file uses', () => {
    expect(uniqueTypeNames(['Events', 'Events', 'Map', 'DB', 'Events2', 'Events'])).toEqual([
      'Events',
      'Events2',
      'MapTable',
      'DBTable',
      'Events22',
      'Events3',
    ])
  })

  it('quotes keys that are not identifiers', () => {
    expect(tsPropertyKey('plain_name')).toBe('plain_name')
    expect(tsPropertyKey('n.x')).toBe('"n.x"')
    expect(tsPropertyKey('weird "name"')).toBe('"weird \\"name\\""')
    expect(tsPropertyKey('1st')).toBe('"1st"')
  })
})
