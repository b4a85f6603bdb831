import type { Settings, SettingValue } from '@clickwire/protocol'

/**
 * A tuple for a `{name:Tuple(...)}` query parameter, as @clickhouse/client spells it:
 * `new TupleParam([42, 'foo'])`. The drop-in sends its values as the tuple.
 */
export class TupleParam {
  constructor(readonly values: readonly unknown[]) {}
}

/**
 * A Map-valued setting (`additional_table_filters`), as @clickhouse/client spells it:
 * `SettingsMap.from({ 'system.numbers': 'number != 3' })` is sent as
 * `{'system.numbers':'number != 3'}`.
 */
export class SettingsMap {
  private constructor(private readonly entries: Readonly<Record<string, string>>) {}

  static from(entries: Readonly<Record<string, string>>): SettingsMap {
    return new SettingsMap({ ...entries })
  }

  /** The setting's text: a map literal with quoted keys and values. */
  toString(): string {
    const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
    return `{${Object.entries(this.entries)
      .map(([key, value]) => `${quote(key)}:${quote(value)}`)
      .join(',')}}`
  }
}

/** @clickhouse/client's settings type: ClickHouse settings by name, a SettingsMap where one is a map. */
export type ClickHouseSettings = Readonly<Record<string, SettingValue | SettingsMap | undefined>>

/** Settings for our client: a SettingsMap as its text, undefined values left out. */
export function toSettings(settings: ClickHouseSettings | undefined): Settings {
  const result: Record<string, SettingValue> = {}
  for (const [name, value] of Object.entries(settings ?? {})) {
    if (value === undefined) continue
    result[name] = value instanceof SettingsMap ? value.toString() : value
  }
  return result
}

/**
 * A parameter value for our client: TupleParam as its values, inside arrays, maps and
 * objects too. A Date inside an array, tuple or map is cut to its UTC day (midnight), as
 * @clickhouse/client binds it (`'2022-05-02'`); a Date at the top level keeps its time.
 */
function toParameterValue(value: unknown, nested = false): unknown {
  if (nested && value instanceof Date)
    return new Date(Date.UTC(value.getUTCFullYear(), value.getUTCMonth(), value.getUTCDate()))
  if (value instanceof TupleParam) return value.values.map((each) => toParameterValue(each, true))
  if (Array.isArray(value)) return value.map((each) => toParameterValue(each, true))
  if (value instanceof Map)
    return new Map(
      [...value].map(([key, each]) => [toParameterValue(key, true), toParameterValue(each, true)]),
    )
  if (value === undefined) return null
  if (typeof value === 'object' && value !== null && !(value instanceof Date) && !ArrayBuffer.isView(value))
    return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, toParameterValue(each, true)]))
  return value
}

/** `query_params` as our `params`. */
export function toParams(
  params: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> | undefined {
  if (!params) return undefined
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, toParameterValue(value)]))
}
