import { describe, expect, it } from 'vitest'
import {
  bytesOf,
  decodeAll,
  expectTruncationsReported,
  fromHex,
  hex,
  str,
} from '../../test/support/packets-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { UsageError } from '../errors/usage-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { legacySettingKind } from './legacy-setting-kinds.js'
import {
  type QuerySetting,
  readParameters,
  readSettings,
  writeParameters,
  writeSettings,
} from './query-settings.js'
import { quoteLiteral, unquoteLiteral } from './quoted-literal.js'

const write = (settings: readonly QuerySetting[], revision: number) =>
  bytesOf((writer) => writeSettings(writer, settings, revision))

describe('settings below revision 54429 (binary format)', () => {
  // The settings section clickhouse-client 18.16.1 sent for
  // `--max_threads=2 --max_execution_time=5 --totals_auto_threshold=0.25
  //  --network_zstd_compression_level=-1 --format_csv_delimiter=';' --max_block_size=100
  //  --result_overflow_mode=break --load_balancing=in_order --connect_timeout_with_failover_ms=75
  //  --send_logs_level=warning --allow_experimental_low_cardinality_type=1`
  // (in the order of its Settings.h).
  const captured =
    '0e6d61785f626c6f636b5f73697a6564' + // max_block_size: VarUInt 100
    '0b6d61785f7468726561647302' + // max_threads: VarUInt 2
    '20636f6e6e6563745f74696d656f75745f776974685f6661696c6f7665725f6d734b' + // milliseconds: VarUInt 75
    '0e6c6f61645f62616c616e63696e6708696e5f6f72646572' + // enum: string 'in_order'
    '15746f74616c735f6175746f5f7468726573686f6c6404302e3235' + // float: string '0.25'
    '1e6e6574776f726b5f7a7374645f636f6d7072657373696f6e5f6c6576656c01' + // Int64 -1: zigzag 1
    '14726573756c745f6f766572666c6f775f6d6f646505627265616b' +
    '126d61785f657865637574696f6e5f74696d6505' + // seconds: VarUInt 5
    '14666f726d61745f6373765f64656c696d69746572013b' + // char: string ';'
    '0f73656e645f6c6f67735f6c6576656c077761726e696e67' +
    '27616c6c6f775f6578706572696d656e74616c5f6c6f775f63617264696e616c6974795f7479706501' +
    '00'
  const settings: QuerySetting[] = [
    { name: 'max_block_size', value: 100 },
    { name: 'max_threads', value: 2n },
    { name: 'connect_timeout_with_failover_ms', value: '75' },
    { name: 'load_balancing', value: 'in_order' },
    { name: 'totals_auto_threshold', value: 0.25 },
    { name: 'network_zstd_compression_level', value: -1 },
    { name: 'result_overflow_mode', value: 'break' },
    { name: 'max_execution_time', value: 5 },
    { name: 'format_csv_delimiter', value: ';' },
    { name: 'send_logs_level', value: 'warning' },
    { name: 'allow_experimental_low_cardinality_type', value: true },
  ]

  it('writes exactly what clickhouse-client 18.16 writes', () => {
    expect(hex(write(settings, 54412))).toBe(captured)
  })

  it('reads them back as text, and reports every truncation', () => {
    const bytes = fromHex(captured)
    expect(decodeAll(bytes, (reader) => readSettings(reader, 54412))).toEqual(
      settings.map(({ name, value }) => ({
        name,
        value: typeof value === 'boolean' ? '1' : String(value),
        important: false,
        custom: false,
      })),
    )
    expectTruncationsReported(bytes, (reader) => readSettings(reader, 54412))
  })

  it('writes Int64 settings zigzag-encoded and max_threads=auto as 0', () => {
    expect(hex(write([{ name: 'distributed_ddl_task_timeout', value: -180 }], 54412))).toBe(
      str('distributed_ddl_task_timeout') + 'e702' + '00',
    )
    expect(hex(write([{ name: 'max_threads', value: 'auto' }], 54428))).toBe(str('max_threads') + '00' + '00')
    expect(hex(write([{ name: 'max_memory_usage', value: 18446744073709551615n }], 54412))).toBe(
      str('max_memory_usage') + 'ffffffffffffffffff01' + '00',
    )
  })

  it('writes the empty list as the end marker alone', () => {
    expect(hex(write([], 54412))).toBe('00')
    expect(decodeAll(fromHex('00'), (reader) => readSettings(reader, 54412))).toEqual([])
  })

  it('refuses what such a server cannot take', () => {
    expect(() => write([{ name: 'input_format_defaults_for_omitted_fields', value: 1 }], 54412)).toThrow(
      'setting input_format_defaults_for_omitted_fields cannot be sent to this server (revision 54412): ' +
        'below revision 54429 settings travel in their binary form, and input_format_defaults_for_omitted_fields ' +
        'is not a setting of ClickHouse 18.16, whose types clickwire knows',
    )
    expect(() => write([{ name: 'custom_x', value: 'a', custom: true }], 54412)).toThrow(UsageError)
    expect(() => write([{ name: 'max_threads', value: -1 }], 54412)).toThrow(
      'setting max_threads: "-1" is not an unsigned integer, as this server takes the setting',
    )
    expect(() => write([{ name: 'max_execution_time', value: 1.5 }], 54412)).toThrow(UsageError)
    expect(() => write([{ name: 'totals_auto_threshold', value: 'half' }], 54412)).toThrow(UsageError)
    expect(() => write([{ name: 'network_zstd_compression_level', value: 2n ** 63n }], 54412)).toThrow(
      UsageError,
    )
    expect(() => write([{ name: '', value: 1 }], 54412)).toThrow('a setting needs a name')
  })

  it('cannot read a name whose binary form it does not know', () => {
    const bytes = fromHex(str('no_such_setting') + '01' + '00')
    expect(() => readSettings(new ByteReader(bytes), 54412)).toThrow(ProtocolError)
  })

  it('knows the type of every 18.16 setting', () => {
    expect(legacySettingKind('max_threads')).toBe('uint')
    expect(legacySettingKind('http_zlib_compression_level')).toBe('int')
    expect(legacySettingKind('input_format_allow_errors_ratio')).toBe('float')
    expect(legacySettingKind('format_schema')).toBe('string')
    expect(legacySettingKind('low_cardinality_allow_in_native_format')).toBe('uint')
    expect(legacySettingKind('input_format_defaults_for_omitted_fields')).toBeUndefined()
  })
})

describe('settings from revision 54429 (strings with flags)', () => {
  const settings: QuerySetting[] = [
    { name: 'max_threads', value: 2 },
    { name: 'max_execution_time', value: 1.5, important: true },
    { name: 'use_uncompressed_cache', value: false },
    { name: 'custom_x', value: "a'b", custom: true },
    { name: 'max_memory_usage', value: 10_000_000_000n },
  ]
  const bytes =
    str('max_threads') +
    '00' +
    str('2') +
    str('max_execution_time') +
    '01' + // important
    str('1.5') +
    str('use_uncompressed_cache') +
    '00' +
    str('0') +
    str('custom_x') +
    '02' + // custom: the value is a literal
    str("'a\\'b'") +
    str('max_memory_usage') +
    '00' +
    str('10000000000') +
    '00'

  it('writes name, flags and text', () => {
    expect(hex(write(settings, 54429))).toBe(bytes)
    expect(hex(write(settings, 54460))).toBe(bytes)
  })

  it('reads them back with their flags, custom values unquoted', () => {
    const decoded = decodeAll(fromHex(bytes), (reader) => readSettings(reader, 54460))
    expect(decoded).toEqual([
      { name: 'max_threads', value: '2', important: false, custom: false },
      { name: 'max_execution_time', value: '1.5', important: true, custom: false },
      { name: 'use_uncompressed_cache', value: '0', important: false, custom: false },
      { name: 'custom_x', value: "a'b", important: false, custom: true },
      { name: 'max_memory_usage', value: '10000000000', important: false, custom: false },
    ])
    expectTruncationsReported(fromHex(bytes), (reader) => readSettings(reader, 54460))
  })

  it('sends any name: the server decides', () => {
    expect(hex(write([{ name: 'input_format_defaults_for_omitted_fields', value: 1 }], 54460))).toBe(
      str('input_format_defaults_for_omitted_fields') + '00' + str('1') + '00',
    )
  })

  it('refuses numbers that would not print exactly', () => {
    expect(() => write([{ name: 'max_memory_usage', value: 2 ** 60 }], 54460)).toThrow(UsageError)
    expect(() => write([{ name: 'max_threads', value: Number.NaN }], 54460)).toThrow(UsageError)
  })
})

describe('query parameters', () => {
  it('travel as custom settings with the text single-quoted, as clickhouse-client sends them', () => {
    const parameters = [
      { name: 'a', value: 'plain' },
      { name: 'b', value: "it's\t\\ \n\0" },
      { name: 'c', value: '' },
    ]
    const bytes = bytesOf((writer) => writeParameters(writer, parameters, 54459))
    expect(hex(bytes)).toBe(
      str('a') +
        '02' +
        str("'plain'") +
        str('b') +
        '02' +
        str("'it\\'s\\t\\\\ \\n\\0'") +
        str('c') +
        '02' +
        str("''") +
        '00',
    )
    expect(decodeAll(bytes, (reader) => readParameters(reader, 54459))).toEqual(parameters)
    expectTruncationsReported(bytes, (reader) => readParameters(reader, 54459))
  })

  it('are absent below revision 54459', () => {
    expect(bytesOf((writer) => writeParameters(writer, [], 54458)).length).toBe(0)
    expect(readParameters(new ByteReader(new Uint8Array(0)), 54458)).toEqual([])
  })

  it('must be quoted literals when read', () => {
    const bytes = fromHex(str('a') + '02' + str('plain') + '00')
    expect(() => readParameters(new ByteReader(bytes), 54459)).toThrow(ProtocolError)
  })
})

describe('quoted literals', () => {
  it('escape what writeQuoted escapes and read what readQuoted reads', () => {
    expect(quoteLiteral('\b\f\n\r\t\0\\\'"é')).toBe("'\\b\\f\\n\\r\\t\\0\\\\\\'\"é'")
    expect(unquoteLiteral(quoteLiteral('\b\f\n\r\t\0\\\'"é'))).toBe('\b\f\n\r\t\0\\\'"é')
    expect(unquoteLiteral("'a''b\\x41\\xc3\\xa9\\a\\v\\q'")).toBe("a'bAé\u0007\u000bq")
    expect(unquoteLiteral("'a'b'")).toBeUndefined()
    expect(unquoteLiteral('plain')).toBeUndefined()
    expect(unquoteLiteral("'\\'")).toBeUndefined()
  })
})
