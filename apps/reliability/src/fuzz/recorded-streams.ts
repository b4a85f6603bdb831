import { readFileSync } from 'node:fs'

/**
 * Byte streams a real ClickHouse 18.16.1 sent, recorded through a FaultProxy by
 * `test/record-streams.test.ts` (run it with CLICKWIRE_RECORD=1 to record them again).
 * They are the seeds the fuzzers mutate: real framing, real type layouts, real packet
 * order, so that most mutated cases get deep into the decoders instead of failing on the
 * first byte.
 */
export interface RecordedStream {
  /** File name below `recorded/`, without `.bin`. */
  readonly name: string
  /** What produced it. */
  readonly sql: string
  readonly settings: Readonly<Record<string, string | number>>
}

/**
 * Native protocol recordings: everything the server sent on one connection (its Hello,
 * then the answer to one query), with the client's compression choice.
 */
export interface NativeRecording extends RecordedStream {
  readonly compression: 'none' | 'lz4'
}

/** HTTP recordings: the body of a `FORMAT Native` response (after HTTP chunking). */
export interface HttpRecording extends RecordedStream {
  /**
   * Where the server appended an exception after data had been sent, the body is cut to
   * its first `keepBlocks` blocks followed by the exception text exactly as the server
   * wrote it (the real body is over 1 MiB: 18.16 sends nothing before that much output).
   */
  readonly keepBlocks?: number
}

/** Columns of one kind of type each, 12 rows in blocks of 4: small streams make cheap cases. */
const typeGroups = {
  numbers: `toUInt8(number) AS u8, toUInt16(number) AS u16, toUInt32(number) AS u32, number AS u64,
    toInt8(number) AS i8, toInt16(number * 300) AS i16, toInt32(number * 70000) AS i32, toInt64(number) - 1000 AS i64,
    toFloat32(number) / 3 AS f32, toFloat64(number) / 7 AS f64,
    toDecimal32(number, 2) AS d32, toDecimal64(number, 4) AS d64, toDecimal128(number, 6) AS d128`,
  strings: `toString(number) AS s, toFixedString(toString(number % 10), 2) AS fs, toNullable(toString(number)) AS ns,
    toLowCardinality(toString(number % 5)) AS lc, [toString(number), 'x'] AS arrs`,
  temporal: `toDate('2020-01-01') + number AS d, toDateTime('2020-01-01 00:00:00', 'UTC') + number * 3600 AS dt,
    toUUID('6f1c8b2e-4a5d-4e3f-9b7a-0c1d2e3f4a5b') AS uuid, CAST(number % 2 AS Enum8('a' = 0, 'b' = 1)) AS e8,
    CAST(number % 3 AS Enum16('x' = 0, 'y' = 1, 'z' = 2)) AS e16`,
  composite: `if(number % 3 = 0, NULL, number) AS nul, [number, number + 1] AS arr, (number, toString(number)) AS tup,
    [[number], []] AS nested, arrayMap(x -> if(x % 2 = 0, NULL, x), range(number % 4)) AS arrnul`,
} as const

const typeQuery = (columns: string) => `SELECT ${columns} FROM system.numbers LIMIT 12`

const totalsQuery = `SELECT number % 3 AS k, count() AS c, sum(number) AS s, groupArray(toString(number)) AS g
FROM (SELECT number FROM system.numbers LIMIT 30) GROUP BY k WITH TOTALS ORDER BY k`

const exceptionQuery =
  'SELECT number, toString(number) AS s, throwIf(number = 25) AS t FROM system.numbers LIMIT 40'

const groups = Object.entries(typeGroups)

/** The native recordings, each with and without LZ4. */
export const nativeRecordings: readonly NativeRecording[] = (['none', 'lz4'] as const).flatMap(
  (compression) => {
    const suffix = compression === 'lz4' ? '-lz4' : ''
    return [
      ...groups.map(([group, columns]) => ({
        name: `native-${group}${suffix}`,
        sql: typeQuery(columns),
        settings: { max_block_size: 4 },
        compression,
      })),
      { name: `native-totals${suffix}`, sql: totalsQuery, settings: { extremes: 1 }, compression },
      {
        name: `native-exception${suffix}`,
        sql: exceptionQuery,
        settings: { max_block_size: 10 },
        compression,
      },
    ]
  },
)

/** The HTTP recordings. */
export const httpRecordings: readonly HttpRecording[] = [
  ...groups.map(([group, columns]) => ({
    name: `http-${group}`,
    sql: typeQuery(columns),
    settings: { max_block_size: 4 },
  })),
  { name: 'http-totals', sql: totalsQuery, settings: { extremes: 1 } },
  {
    name: 'http-exception',
    sql: 'SELECT number, toString(number) AS s, throwIf(number = 150000) AS t FROM system.numbers LIMIT 200000',
    settings: { max_block_size: 100 },
    keepBlocks: 3,
  },
]

const directory = new URL('./recorded/', import.meta.url)

/** The recorded bytes of a stream. */
export function recordedBytes(name: string): Uint8Array {
  const buffer = readFileSync(new URL(`${name}.bin`, directory))
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length)
}

/** Where a recording is stored (for the recorder). */
export function recordingUrl(name: string): URL {
  return new URL(`${name}.bin`, directory)
}
