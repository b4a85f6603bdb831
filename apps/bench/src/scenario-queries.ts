import { intColumns, stringColumns } from './ontime-schema.js'

/**
 * What one benchmark process does, named after the reference's scenarios:
 * - `raw-tsv`, `raw-json` (1): the body's bytes, not parsed;
 * - `tsv-split` (2), `tsv-cast` (2.5), `json-parse` (3): text formats turned into rows;
 * - `rows` (4): every row fully parsed into values;
 * - `iterate`, `iterate-strings`, `iterate-ints` (7, 10, 13): rows one at a time;
 * - `columns-strings`, `columns-ints` (10, 13): the same projections as whole columns;
 * - `arrow`, `arrow-numpy`, `arrow-ints`, `arrow-strings` (18-24): Arrow tables;
 * - `insert`: the rows below a cutoff written into `perftest.ontime_insert`;
 * - `numbers`: ch-bench, `SELECT number FROM system.numbers_mt LIMIT N` read to the end;
 * - `numbers-strings`: the same with `toString(number)`, a String column of N short values;
 * - `numbers-strings-blocks`: that query with each block decoded but no JS string made of
 *   its values (clickwire only), as ch-go's `ColStr` and clickhouse-client read them.
 */
export type Work =
  | 'raw-tsv'
  | 'raw-json'
  | 'tsv-split'
  | 'tsv-cast'
  | 'json-parse'
  | 'rows'
  | 'iterate'
  | 'iterate-strings'
  | 'iterate-ints'
  | 'columns-strings'
  | 'columns-ints'
  | 'arrow'
  | 'arrow-numpy'
  | 'arrow-ints'
  | 'arrow-strings'
  | 'insert'
  | 'numbers'
  | 'numbers-strings'
  | 'numbers-strings-blocks'

export const insertTable = 'perftest.ontime_insert'

/** The projection a work selects: every column, or the reference's string or int column lists. */
export function projectionOf(work: Work): string {
  if (work.endsWith('strings')) return stringColumns.join(', ')
  if (work.endsWith('ints')) return intColumns.join(', ')
  return '*'
}

/** The ontime SELECT of a work below a cutoff date (`YYYY-MM-DD`). */
export function ontimeQuery(work: Work, cutoff: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(cutoff))
    throw new Error(`a cutoff is a date, got ${JSON.stringify(cutoff)}`)
  return `SELECT ${projectionOf(work)} FROM perftest.ontime WHERE FlightDate < '${cutoff}'`
}

/** ch-bench's query. */
export function numbersQuery(rows: number): string {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`a row count, got ${rows}`)
  return `SELECT number FROM system.numbers_mt LIMIT ${rows}`
}

/**
 * ch-bench over a String column: `SELECT toString(number) FROM system.numbers_mt LIMIT N`.
 * Short values (1 to 9 bytes), so the cost is the per-value framing of the String layout
 * (revision 54492's cumulative offsets against the older varint lengths), not the bytes.
 */
export function numbersStringsQuery(rows: number): string {
  return numbersQuery(rows).replace('SELECT number', 'SELECT toString(number)')
}

/** Whether a work reads ch-bench's numbers (its point is a row count, not a cutoff date). */
export function isNumbersWork(work: Work): boolean {
  return work === 'numbers' || work === 'numbers-strings' || work === 'numbers-strings-blocks'
}

/** The SELECT a work runs at a point (a cutoff date, or a row count for the ch-bench works). */
export function queryOf(work: Work, point: string): string {
  if (work === 'numbers') return numbersQuery(Number(point))
  if (work === 'numbers-strings' || work === 'numbers-strings-blocks')
    return numbersStringsQuery(Number(point))
  return ontimeQuery(work, point)
}
