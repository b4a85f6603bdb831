// The client exports every function its error messages tell users to call. Each message is
// produced for real, the helper it names is looked up on both entry points by that name, and
// doing what the message says makes the failing call work.
import {
  ByteWriter,
  clientRevision,
  codecFor,
  defaultValueMapping,
  loadCodecs,
  parseType,
  typedValue as protocolTypedValue,
  UsageError,
} from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import * as nodeEntry from './index.js'
import * as browserEntry from './index-browser.js'
import { sql } from './sql-template.js'

// encodeDynamic makes Dynamic's codec synchronously, as an insert does once its header arrived.
await loadCodecs()

const entries = [
  ['node', nodeEntry as Record<string, unknown>],
  ['browser', browserEntry as Record<string, unknown>],
] as const

/** Writes one value into a Dynamic column the way an insert does; returns the bytes. */
function encodeDynamic(value: unknown): Uint8Array {
  const context = { revision: clientRevision, timezone: 'UTC', mapping: defaultValueMapping }
  const codec = codecFor(parseType('Dynamic'), context)
  const writer = new ByteWriter()
  codec.encodePrefix(writer, [value])
  codec.encode(writer, [value], 1)
  return writer.copy()
}

/** The message of the UsageError `call` throws. */
function usageMessage(call: () => unknown): string {
  try {
    call()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
  throw new Error('expected a UsageError')
}

describe.each(entries)('the %s entry', (_name, entry) => {
  it('exports the typedValue() that a Dynamic value without a type asks for', () => {
    const message = usageMessage(() => encodeDynamic([1, 'a']))
    expect(message).toBe('row 0: elements of types Int64 and String in one array; wrap it with typedValue()')
    const named = /wrap it with (\w+)\(\)/.exec(message)![1]!
    expect(named).toBe('typedValue')
    expect(entry[named]).toBe(protocolTypedValue)
    const wrapped = protocolTypedValue('Array(String)', ['1', 'a'])
    expect(encodeDynamic(wrapped)).toEqual(encodeDynamic(['1', 'a']))
  })

  it('exports the sql tag whose sql.id() and sql.raw() its messages name', () => {
    expect(usageMessage(() => sql.id())).toBe('sql.id() needs at least one name')
    expect(usageMessage(() => sql.raw(1 as unknown as string))).toBe('sql.raw() takes a string')
    const exported = entry.sql as typeof sql
    expect(exported).toBe(sql)
    expect(exported.id('db', 'events').toSql()).toBe('`db`.`events`')
    expect(exported.raw('now()').text).toBe('now()')
  })
})
