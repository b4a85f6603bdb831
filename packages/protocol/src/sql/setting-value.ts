import { UsageError } from '../errors/usage-error.js'
import type { SettingValue } from '../transport/transport-contract.js'

/*
 * The one place a setting's name and value become the text a server reads: the native
 * Query packet (strings format, and the text the binary format of 18.16 starts from) and
 * the URL fields of an HTTP request. Both transports therefore accept the same values,
 * render them the same way and refuse the same ones with the same words.
 */

const settingName = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * Checks a setting name: ClickHouse's setting names (built-in and custom) are identifiers.
 * Anything else is refused before sending (over HTTP it would land among the request's own
 * URL fields).
 */
export function checkSettingName(name: string): void {
  if (name === '') throw new UsageError('a setting needs a name')
  if (!settingName.test(name)) throw new UsageError(`invalid setting name ${JSON.stringify(name)}`)
}

/**
 * The text of a setting value, as a server parses it: strings as they are, booleans as `1`
 * / `0`, bigints and safe integers in decimal, other finite numbers as JavaScript prints
 * them. Refused with a UsageError: NaN and ±Infinity (no setting takes them), integers
 * beyond 2^53 given as numbers (their text would be inexact or in exponent form; pass a
 * bigint or a string), and any other type (objects, arrays, null, symbols, functions).
 */
export function settingValueText(name: string, value: SettingValue): string {
  switch (typeof value) {
    case 'string':
      return value
    case 'boolean':
      return value ? '1' : '0'
    case 'bigint':
      return value.toString()
    case 'number':
      if (!Number.isFinite(value)) throw new UsageError(`setting ${name}: ${value} is not a finite number`)
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw new UsageError(`setting ${name}: ${value} is not exact; pass a bigint or a string`)
      }
      return String(value)
    default: {
      const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
      throw new UsageError(
        `setting ${name}: unsupported value type ${kind} (a setting takes a string, number, bigint or boolean)`,
      )
    }
  }
}

/**
 * Name and value text of every setting that is not undefined, in order, each checked with
 * {@link checkSettingName} and {@link settingValueText}.
 */
export function settingEntries(
  settings: Readonly<Record<string, SettingValue | undefined>>,
): Array<[name: string, text: string]> {
  const entries: Array<[string, string]> = []
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) continue
    checkSettingName(name)
    entries.push([name, settingValueText(name, value)])
  }
  return entries
}
