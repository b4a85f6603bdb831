import { emptyProgress } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { headersFrom } from './http-backend.js'
import {
  finalProgress,
  parseProgressHeader,
  progressFromHeaders,
  reportedWrittenRows,
} from './progress-headers.js'

describe('progress headers', () => {
  it('parses the JSON ClickHouse writes, the last of several', () => {
    const one =
      '{"read_rows":"2","read_bytes":"16","written_rows":"0","written_bytes":"0","total_rows_to_read":"10"}'
    const two =
      '{"read_rows":"10","read_bytes":"80","written_rows":"1","written_bytes":"8","total_rows_to_read":"10","elapsed_ns":"1234"}'
    expect(parseProgressHeader(`${one}, ${two}`)).toEqual({
      readRows: 10,
      readBytes: 80,
      totalRowsToRead: 10,
      writtenRows: 1,
      writtenBytes: 8,
      elapsedNs: 1234,
    })
    expect(parseProgressHeader(undefined)).toBeUndefined()
    expect(parseProgressHeader('not json')).toBeUndefined()
  })

  it('reads them under the configured prefix and prefers the summary', () => {
    const headers = headersFrom({
      'x-datastore-progress': ['{"read_rows":"1"}', '{"read_rows":"5"}'],
      'x-datastore-summary': '{"read_rows":"9","written_rows":"3"}',
      'x-clickhouse-summary': '{"read_rows":"100"}',
    })
    const found = progressFromHeaders(headers, 'X-Datastore-')
    expect(found.progress?.readRows).toBe(5)
    expect(finalProgress(found)).toMatchObject({ readRows: 9, writtenRows: 3 })
    expect(finalProgress(progressFromHeaders(headersFrom({}), 'X-ClickHouse-'))).toBe(emptyProgress)
  })

  it('reports written rows only when a header counts them: unknown is undefined, not 0', () => {
    const prefix = 'X-ClickHouse-'
    // 26.x: the summary counts the rows, even when none were written.
    expect(
      reportedWrittenRows(
        headersFrom({ 'x-clickhouse-summary': '{"read_rows":"0","written_rows":"7"}' }),
        prefix,
      ),
    ).toBe(7)
    expect(reportedWrittenRows(headersFrom({ 'x-clickhouse-summary': '{"written_rows":"0"}' }), prefix)).toBe(
      0,
    )
    // The last of several progress headers stands in when there is no summary.
    expect(
      reportedWrittenRows(
        headersFrom({ 'x-clickhouse-progress': ['{"written_rows":"1"}', '{"written_rows":"4"}'] }),
        prefix,
      ),
    ).toBe(4)
    // 18.16: no summary, and progress (if any) without written_rows.
    expect(reportedWrittenRows(headersFrom({}), prefix)).toBeUndefined()
    expect(
      reportedWrittenRows(headersFrom({ 'x-clickhouse-progress': '{"read_rows":"3"}' }), prefix),
    ).toBeUndefined()
    expect(reportedWrittenRows(headersFrom({ 'x-clickhouse-summary': 'not json' }), prefix)).toBeUndefined()
    // Another prefix's header is not ours.
    expect(
      reportedWrittenRows(headersFrom({ 'x-clickhouse-summary': '{"written_rows":"2"}' }), 'X-Datastore-'),
    ).toBeUndefined()
  })
})
