import type { QuerySummary } from '../query-summary.js'

/** @clickhouse/client's `X-ClickHouse-Summary` shape: counters as decimal strings. */
export interface ClickHouseSummary {
  readonly read_rows: string
  readonly read_bytes: string
  readonly written_rows: string
  readonly written_bytes: string
  readonly total_rows_to_read: string
  readonly result_rows: string
  readonly result_bytes: string
  readonly elapsed_ns: string
}

/** Our summary in @clickhouse/client's shape. */
export function compatSummary(summary: QuerySummary): ClickHouseSummary {
  return {
    read_rows: String(summary.readRows),
    read_bytes: String(summary.readBytes),
    written_rows: String(summary.writtenRows),
    written_bytes: String(summary.writtenBytes),
    total_rows_to_read: String(summary.totalRowsToRead),
    result_rows: String(summary.resultRows),
    result_bytes: String(summary.resultBytes),
    elapsed_ns: String(summary.elapsedNs),
  }
}
