import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import { checkSettingName, settingValueText } from '../sql/setting-value.js'
import type { SettingValue } from '../transport/transport-contract.js'
import { type LegacySettingKind, legacySettingKind } from './legacy-setting-kinds.js'
import { Revision } from './protocol-revision.js'
import { quoteLiteral, unquoteLiteral } from './quoted-literal.js'

/*
 * Settings in a Query packet (BaseSettings::write / read). Both formats are a list of
 * entries ended by an empty name:
 *
 * - from revision 54429 (SettingsWriteFormat::STRINGS_WITH_FLAGS): name, a VarUInt of flags
 *   (0x01 important: the server fails on a name it does not know instead of skipping it;
 *   0x02 custom: a user-defined setting whose value is a ClickHouse literal), the value as
 *   text;
 * - below it (SettingsWriteFormat::BINARY): name, then the value in the setting type's own
 *   binary form, which only a table of types can produce (see legacy-setting-kinds.ts).
 *
 * Query parameters (revision >= 54459) travel in the strings format too, each as a custom
 * setting whose value is the parameter text single-quoted (what clickhouse-client sends).
 */

export interface QuerySetting {
  readonly name: string
  /** As text, or (for old servers) in its type's binary form; decoded settings always hold the text. */
  readonly value: SettingValue
  /** Strings format only: the server rejects the query if it does not know the name (else it skips it with a warning). */
  readonly important?: boolean
  /** Strings format only: a custom setting (a name with a `custom_settings_prefixes` prefix); its text travels quoted. */
  readonly custom?: boolean
}

/** A query parameter: its name and its text as the server-side parameter parser expects it (unquoted). */
export interface QueryParameter {
  readonly name: string
  readonly value: string
}

const flagImportant = 0x01
const flagCustom = 0x02

const uint64Limit = 1n << 64n
const int64Min = -(1n << 63n)
const int64Max = (1n << 63n) - 1n
const decimalText = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/**
 * The text form of a value, as the strings format carries it: the shared setting encoder
 * (sql/setting-value.ts), so the native and HTTP transports accept, render and refuse
 * values alike.
 */
export function settingText(name: string, value: SettingValue): string {
  return settingValueText(name, value)
}

function badValue(name: string, value: SettingValue, expected: string): UsageError {
  return new UsageError(`setting ${name}: ${JSON.stringify(String(value))} is not ${expected}`)
}

/** An unsigned setting value (UInt64, Bool, MaxThreads, Seconds, Milliseconds in 18.16). */
function unsignedValue(name: string, value: SettingValue): bigint {
  if (typeof value === 'boolean') return value ? 1n : 0n
  let result: bigint | undefined
  if (typeof value === 'bigint') result = value
  else if (typeof value === 'number' && Number.isSafeInteger(value)) result = BigInt(value)
  else if (typeof value === 'string') {
    if (/^\d+$/.test(value)) result = BigInt(value)
    else if (value === 'true' || value === 'false') result = value === 'true' ? 1n : 0n
    // SettingMaxThreads writes `auto` as 0, which servers read back as auto.
    else if (value === 'auto' && name === 'max_threads') result = 0n
  }
  if (result === undefined || result < 0n || result >= uint64Limit) {
    throw badValue(name, value, 'an unsigned integer, as this server takes the setting')
  }
  return result
}

function signedValue(name: string, value: SettingValue): bigint {
  let result: bigint | undefined
  if (typeof value === 'bigint') result = value
  else if (typeof value === 'number' && Number.isSafeInteger(value)) result = BigInt(value)
  else if (typeof value === 'string' && /^-?\d+$/.test(value)) result = BigInt(value)
  if (result === undefined || result < int64Min || result > int64Max) {
    throw badValue(name, value, 'an Int64, as this server takes the setting')
  }
  return result
}

function writeBinaryValue(writer: ByteWriter, setting: QuerySetting, kind: LegacySettingKind): void {
  const { name, value } = setting
  switch (kind) {
    case 'uint':
      writer.varUIntBig(unsignedValue(name, value))
      return
    case 'int': {
      const signed = signedValue(name, value)
      writer.varUIntBig(BigInt.asUintN(64, (signed << 1n) ^ (signed >> 63n)))
      return
    }
    case 'float': {
      const text = settingText(name, value)
      if (!decimalText.test(text)) throw badValue(name, value, 'a number')
      writer.string(text)
      return
    }
    case 'string':
      writer.string(settingText(name, value))
      return
  }
}

/** Writes settings in the format of the negotiated `revision`, ended by the empty name. */
export function writeSettings(writer: ByteWriter, settings: readonly QuerySetting[], revision: number): void {
  const strings = revision >= Revision.withSettingsSerializedAsStrings
  for (const setting of settings) {
    const { name } = setting
    checkSettingName(name)
    // Every value is checked as text first, whatever format carries it: the binary format
    // of old servers then refuses the same values with the same words as the strings format
    // and HTTP (NaN, Infinity, inexact integers, objects).
    const text = settingText(name, setting.value)
    if (strings) {
      writer.string(name)
      writer.varUInt((setting.important ? flagImportant : 0) | (setting.custom ? flagCustom : 0))
      writer.string(setting.custom ? quoteLiteral(text) : text)
      continue
    }
    if (setting.custom) {
      throw new UsageError(
        `custom setting ${name} needs a server of revision ${Revision.withSettingsSerializedAsStrings} or later; this one speaks ${revision}`,
      )
    }
    const kind = legacySettingKind(name)
    if (kind === undefined) {
      throw new UsageError(
        `setting ${name} cannot be sent to this server (revision ${revision}): below revision ` +
          `${Revision.withSettingsSerializedAsStrings} settings travel in their binary form, and ` +
          `${name} is not a setting of ClickHouse 18.16, whose types clickwire knows`,
      )
    }
    writer.string(name)
    writeBinaryValue(writer, setting, kind)
  }
  writer.string('')
}

/**
 * Writes query parameters (revision >= 54459) as custom settings in the strings format, ended
 * by the empty name. Below that revision nothing is written, and parameters are refused:
 * the caller must substitute them into the query text instead.
 */
export function writeParameters(
  writer: ByteWriter,
  parameters: readonly QueryParameter[],
  revision: number,
): void {
  if (revision < Revision.withParameters) {
    if (parameters.length > 0) {
      throw new UsageError(
        `server-side query parameters need revision ${Revision.withParameters}; this server speaks ${revision}`,
      )
    }
    return
  }
  for (const { name, value } of parameters) {
    if (name === '') throw new UsageError('a query parameter needs a name')
    writer.string(name)
    writer.varUInt(flagCustom)
    writer.string(quoteLiteral(value))
  }
  writer.string('')
}

function readBinaryValue(reader: ByteReader, name: string, kind: LegacySettingKind): string {
  switch (kind) {
    case 'uint':
      return reader.varUIntBig().toString()
    case 'int': {
      const zigzag = reader.varUIntBig()
      return BigInt.asIntN(64, (zigzag >> 1n) ^ -(zigzag & 1n)).toString()
    }
    case 'float':
    case 'string':
      return reader.string()
    default:
      throw new ProtocolError(`setting ${name} has no known binary form`)
  }
}

/**
 * Reads settings written by {@link writeSettings}; undefined when short. Custom values come
 * back unquoted. In the binary format a name outside the 18.16 table is malformed input (its
 * value could not be skipped).
 */
export function readSettings(reader: ByteReader, revision: number): QuerySetting[] | undefined {
  const strings = revision >= Revision.withSettingsSerializedAsStrings
  const settings: QuerySetting[] = []
  for (;;) {
    const name = reader.string()
    if (reader.short) return undefined
    if (name === '') return settings
    if (strings) {
      const flags = reader.varUInt()
      const text = reader.string()
      if (reader.short) return undefined
      const custom = (flags & flagCustom) !== 0
      const value = custom ? (unquoteLiteral(text) ?? text) : text
      settings.push({ name, value, important: (flags & flagImportant) !== 0, custom })
      continue
    }
    const kind = legacySettingKind(name)
    if (kind === undefined) {
      throw new ProtocolError(`unknown setting ${JSON.stringify(name)} in the binary settings format`, {
        path: 'Query > settings',
      })
    }
    const value = readBinaryValue(reader, name, kind)
    if (reader.short) return undefined
    settings.push({ name, value, important: false, custom: false })
  }
}

/** Reads query parameters (revision >= 54459); an empty list below it. Undefined when short. */
export function readParameters(reader: ByteReader, revision: number): QueryParameter[] | undefined {
  const parameters: QueryParameter[] = []
  if (revision < Revision.withParameters) return parameters
  for (;;) {
    const name = reader.string()
    if (reader.short) return undefined
    if (name === '') return parameters
    reader.varUInt()
    const text = reader.string()
    if (reader.short) return undefined
    const value = unquoteLiteral(text)
    if (value === undefined) {
      throw new ProtocolError(`query parameter ${JSON.stringify(name)} is not a quoted literal`, {
        path: 'Query > parameters',
      })
    }
    parameters.push({ name, value })
  }
}
