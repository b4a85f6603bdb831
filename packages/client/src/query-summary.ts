import type { ProfileInfo, Progress } from '@clickwire/protocol'

/**
 * What the server says a finished query did, the same shape over both transports: the
 * figures of `X-ClickHouse-Summary` (HTTP) or of the Progress and ProfileInfo packets
 * (native), in the client's camelCase. `progress` (read/written rows and bytes, total rows
 * to read, elapsed) is the part both carry; `resultRows` / `resultBytes` are the result's
 * size as the server counted it (native ProfileInfo). Over HTTP the summary header comes with the
 * response headers, before a streamed result was written, so a result's `resultRows` are
 * the rows received once it was read to the end, and `resultBytes` the header's (often 0
 * for a SELECT); for statements the header's `result_rows` / `result_bytes` as the server says.
 */
export interface QuerySummary extends Progress {
  readonly resultRows: number
  readonly resultBytes: number
}

function count(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value)
  return 0
}

/** `result_rows` / `result_bytes` of an `X-ClickHouse-Summary` value (several joined by `, `: the last). */
function resultSizeFromSummary(value: string | undefined): { rows: number; bytes: number } | undefined {
  if (!value) return undefined
  const start = value.lastIndexOf('{')
  if (start < 0) return undefined
  try {
    const json = JSON.parse(value.slice(start)) as Record<string, unknown>
    if (typeof json !== 'object' || json === null || !('result_rows' in json)) return undefined
    return { rows: count(json.result_rows), bytes: count(json.result_bytes) }
  } catch {
    return undefined
  }
}

/**
 * The summary of a call from what its transport reported: the final progress, native's
 * ProfileInfo, and HTTP's response headers (names lower case; `headerPrefix` as configured).
 */
export function querySummary(
  progress: Progress,
  profileInfo: ProfileInfo | undefined,
  responseHeaders: Readonly<Record<string, string>>,
  headerPrefix = 'X-ClickHouse-',
  /** Rows the client received of a result read to the end (HTTP sends its headers before). */
  deliveredRows?: number | undefined,
): QuerySummary {
  const fromHeader = resultSizeFromSummary(responseHeaders[`${headerPrefix.toLowerCase()}summary`])
  return {
    readRows: progress.readRows,
    readBytes: progress.readBytes,
    totalRowsToRead: progress.totalRowsToRead,
    writtenRows: progress.writtenRows,
    writtenBytes: progress.writtenBytes,
    elapsedNs: progress.elapsedNs,
    resultRows: profileInfo?.rows ?? deliveredRows ?? fromHeader?.rows ?? 0,
    resultBytes: profileInfo?.bytes ?? fromHeader?.bytes ?? 0,
  }
}
