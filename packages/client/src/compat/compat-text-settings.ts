import type { Settings } from '@clickwire/protocol'
import type { Client } from '../clickwire-client.js'
import type { TextSettings } from './value-text.js'

/** The settings that change how the server writes values in the formats the drop-in writes. */
const names = [
  'output_format_json_quote_64bit_integers',
  'output_format_json_quote_64bit_floats',
  'output_format_json_quote_denormals',
  'output_format_json_quote_decimals',
  'output_format_json_escape_forward_slashes',
  'output_format_json_named_tuples_as_objects',
  'output_format_decimal_trailing_zeros',
  'output_format_json_pretty_print',
  'format_csv_delimiter',
  'output_format_csv_crlf_end_of_line',
  'output_format_tsv_crlf_end_of_line',
  'format_csv_null_representation',
  'format_tsv_null_representation',
  'output_format_csv_serialize_tuple_into_separate_columns',
  'output_format_csv_header_serialize_tuple_into_separate_columns',
  // Not a writing setting: how the server reads a JSON number for DateTime64 (native inserts convert it).
  'input_format_read_datetime_number_as_raw_value',
  // Likewise: JSON objects filling the columns of a flattened Nested (n: { id: [...] } into n.id).
  'input_format_import_nested_json',
] as const

type Name = (typeof names)[number]

/** The server's values of those settings for this client's user (a setting the server lacks is absent). */
export async function serverTextSettings(client: Client): Promise<Readonly<Record<string, string>>> {
  const result = await client.query<{ name: string; value: string }>(
    `SELECT name, value FROM system.settings WHERE name IN (${names.map((name) => `'${name}'`).join(', ')})`,
  )
  return Object.fromEntries((await result.rows()).map((row) => [row.name, row.value]))
}

function flag(value: unknown, absent: boolean): boolean {
  if (value === undefined) return absent
  return value === true || value === 1 || value === '1' || value === 'true'
}

/**
 * Whether the server would read a JSON integer for a DateTime64 column as raw ticks: its
 * `input_format_read_datetime_number_as_raw_value` (0 by default from 26.8 on), overridden
 * by the client's and the call's settings; servers before that setting always read ticks.
 */
export function dateTimeNumbersAsTicks(
  server: Readonly<Record<string, string>>,
  ...overrides: (Settings | undefined)[]
): boolean {
  return flag(lastValue('input_format_read_datetime_number_as_raw_value', server, overrides), true)
}

/**
 * Whether the server would read a JSON object of a Nested column's name into its
 * flattened columns (`input_format_import_nested_json`, off by default), overridden by the
 * client's and the call's settings.
 */
export function importNestedJson(
  server: Readonly<Record<string, string>>,
  ...overrides: (Settings | undefined)[]
): boolean {
  return flag(lastValue('input_format_import_nested_json', server, overrides), false)
}

function lastValue(
  name: Name,
  server: Readonly<Record<string, string>>,
  overrides: readonly (Settings | undefined)[],
): unknown {
  let value: unknown = server[name]
  for (const settings of overrides) if (settings?.[name] !== undefined) value = settings[name]
  return value
}

/** The writing settings from the server's values, overridden by the client's and the call's settings. */
export function textSettings(
  server: Readonly<Record<string, string>>,
  ...overrides: (Settings | undefined)[]
): TextSettings {
  const merged: Record<string, unknown> = { ...server }
  for (const settings of overrides) Object.assign(merged, settings)
  const get = (name: Name) => merged[name]
  const text = (name: Name, absent: string) => {
    const value = get(name)
    return value === undefined ? absent : String(value)
  }
  return {
    // Servers before these settings existed wrote 64-bit integers quoted and decimals with
    // their trailing zeros, and named tuples as arrays.
    quote64BitIntegers: flag(get('output_format_json_quote_64bit_integers'), true),
    quote64BitFloats: flag(get('output_format_json_quote_64bit_floats'), false),
    quoteDenormals: flag(get('output_format_json_quote_denormals'), false),
    quoteDecimals: flag(get('output_format_json_quote_decimals'), false),
    escapeForwardSlashes: flag(get('output_format_json_escape_forward_slashes'), true),
    namedTuplesAsObjects: flag(get('output_format_json_named_tuples_as_objects'), false),
    decimalTrailingZeros: flag(get('output_format_decimal_trailing_zeros'), true),
    jsonPrettyPrint: flag(get('output_format_json_pretty_print'), false),
    csvDelimiter: text('format_csv_delimiter', ','),
    csvCrlf: flag(get('output_format_csv_crlf_end_of_line'), false),
    tsvCrlf: flag(get('output_format_tsv_crlf_end_of_line'), false),
    csvNull: text('format_csv_null_representation', '\\N'),
    tsvNull: text('format_tsv_null_representation', '\\N'),
    // Servers before the setting always wrote a tuple as one CSV field per element.
    csvTupleColumns: flag(get('output_format_csv_serialize_tuple_into_separate_columns'), true),
    // Servers before this setting named a tuple once in the header (its fields still separate).
    csvTupleHeaderColumns: flag(get('output_format_csv_header_serialize_tuple_into_separate_columns'), false),
    // Servers before format_tsv_null_representation wrote NULL in TabSeparatedRaw as ᴺᵁᴸᴸ.
    rawNull:
      get('format_tsv_null_representation') === undefined
        ? 'ᴺᵁᴸᴸ'
        : text('format_tsv_null_representation', '\\N'),
  }
}
