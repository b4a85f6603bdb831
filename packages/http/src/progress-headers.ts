import { emptyProgress, type Progress } from '@clickwire/protocol'
import type { ResponseHeaders } from './http-backend.js'

/*
 * `send_progress_in_http_headers=1` makes the server send `X-ClickHouse-Progress: {json}`
 * headers while the query runs and before the body starts; newer servers also send
 * `X-ClickHouse-Summary` once the headers end. The JSON values are strings of integers
 * (`{"read_rows":"2","read_bytes":"16","written_rows":"0","written_bytes":"0",
 * "total_rows_to_read":"2","elapsed_ns":"..."}`), each header carrying the running totals
 * (src/IO/Progress.cpp, writeJSON). Debian's 18.16 build sends neither: its Poco lacks the
 * patch the progress headers need.
 */

function count(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value)
  return 0
}

/** Progress from one header value; several headers joined with `, ` give the last one. */
export function parseProgressHeader(value: string | undefined): Progress | undefined {
  if (!value) return undefined
  const start = value.lastIndexOf('{')
  if (start < 0) return undefined
  let json: Record<string, unknown>
  try {
    json = JSON.parse(value.slice(start)) as Record<string, unknown>
  } catch {
    return undefined
  }
  if (typeof json !== 'object' || json === null) return undefined
  return {
    readRows: count(json.read_rows),
    readBytes: count(json.read_bytes),
    totalRowsToRead: count(json.total_rows_to_read),
    writtenRows: count(json.written_rows),
    writtenBytes: count(json.written_bytes),
    elapsedNs: count(json.elapsed_ns),
  }
}

/**
 * The written rows the server reported in its summary (or last progress) header, or
 * `undefined` when neither header carries `written_rows` (18.16 sends no such headers): an
 * unknown count, not a zero.
 */
export function reportedWrittenRows(headers: ResponseHeaders, prefix: string): number | undefined {
  for (const name of ['Summary', 'Progress']) {
    const value = headers.get(`${prefix}${name}`)
    const start = value?.lastIndexOf('{') ?? -1
    if (value === undefined || value === null || start < 0) continue
    try {
      const json = JSON.parse(value.slice(start)) as Record<string, unknown>
      if (typeof json === 'object' && json !== null && 'written_rows' in json) return count(json.written_rows)
    } catch {
      // A header we cannot read says nothing.
    }
  }
  return undefined
}

/** What the progress and summary headers of a response say, if anything. */
export function progressFromHeaders(
  headers: ResponseHeaders,
  prefix: string,
): {
  progress: Progress | undefined
  summary: Progress | undefined
} {
  return {
    progress: parseProgressHeader(headers.get(`${prefix}Progress`)),
    summary: parseProgressHeader(headers.get(`${prefix}Summary`)),
  }
}

/** The best final figures: the summary, else the last progress header, else zeros. */
export function finalProgress(found: {
  progress: Progress | undefined
  summary: Progress | undefined
}): Progress {
  return found.summary ?? found.progress ?? emptyProgress
}
