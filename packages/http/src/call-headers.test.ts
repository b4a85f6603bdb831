import { describe, expect, it } from 'vitest'
import { callHeaders, reportResponseHeaders } from './call-headers.js'
import { headersFrom } from './http-backend.js'

describe('callHeaders', () => {
  it('writes the trace context as W3C traceparent and tracestate, over the call’s headers', () => {
    expect(
      callHeaders({
        headers: { 'x-route': 'a' },
        traceContext: {
          traceId: '0AF7651916CD43DD8448EB211C80319C',
          spanId: 'b7ad6b7169203331',
          traceFlags: 1,
          traceState: 'congo=t61rcWkgMzE',
        },
      }),
    ).toEqual({
      'x-route': 'a',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      tracestate: 'congo=t61rcWkgMzE',
    })
    expect(callHeaders({ headers: { a: 'b' } })).toEqual({ a: 'b' })
    expect(callHeaders({})).toBeUndefined()
  })

  it('hands every response header over, names lower case, from both header shapes', () => {
    const seen: Record<string, string>[] = []
    const options = {
      onResponseHeaders: (headers: Readonly<Record<string, string>>) => seen.push({ ...headers }),
    }
    reportResponseHeaders(options, headersFrom({ 'X-ClickHouse-Query-Id': 'q', 'Set-Cookie': ['a', 'b'] }))
    reportResponseHeaders(options, headersFrom(new Headers({ 'X-ClickHouse-Format': 'Native' })))
    expect(seen).toEqual([
      { 'x-clickhouse-query-id': 'q', 'set-cookie': 'a, b' },
      { 'x-clickhouse-format': 'Native' },
    ])
  })
})
