import { quoteSqlIdentifier, quoteSqlString } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { resolveOptions } from './http-options.js'
import { basicAuthorization, buildRequest } from './request-builder.js'

const fields = (url: string) => [...new URL(url).searchParams]

describe('buildRequest', () => {
  it('puts settings, ids and formats in the URL and Basic auth in a header', () => {
    const options = resolveOptions({
      url: 'http://alice:s3cr3t-pass@example.test:8123/',
      database: 'db1',
      settings: { max_threads: 2, readonly: true, skip: undefined },
      roles: ['r1', 'r2'],
    })
    const { url, headers } = buildRequest(options, {
      queryId: 'q1',
      defaultFormat: 'Native',
      settings: { max_threads: 4, send_logs_level: 'warning' },
      extraFields: [['param_x', 'a\tb']],
    })
    expect(url.startsWith('http://example.test:8123/?')).toBe(true)
    expect(fields(url)).toEqual([
      ['query_id', 'q1'],
      ['database', 'db1'],
      ['default_format', 'Native'],
      ['role', 'r1'],
      ['role', 'r2'],
      ['max_threads', '4'],
      ['readonly', '1'],
      ['send_logs_level', 'warning'],
      ['param_x', 'a\tb'],
    ])
    expect(headers.authorization).toBe(`Basic ${btoa('alice:s3cr3t-pass')}`)
    expect(headers['content-type']).toBe('text/plain; charset=UTF-8')
    expect(url).not.toContain('s3cr3t')
  })

  it('sends credentials as prefixed headers, with any prefix', () => {
    const options = resolveOptions({
      url: 'http://h:1',
      username: 'bob',
      password: 'pw-1234',
      auth: 'headers',
      headerPrefix: 'X-Datastore-',
    })
    const { url, headers } = buildRequest(options, { queryId: 'q' })
    expect(headers).toMatchObject({ 'X-Datastore-User': 'bob', 'X-Datastore-Key': 'pw-1234' })
    expect(Object.keys(headers).some((name) => /clickhouse/i.test(name))).toBe(false)
    expect(headers.authorization).toBeUndefined()
    expect(fields(url)).toEqual([['query_id', 'q']])
  })

  it('simple requests carry credentials in the URL and no custom header', () => {
    const options = resolveOptions({
      url: 'http://h:1',
      username: 'carol',
      password: 'pw-5678',
      simpleRequests: true,
      headers: { 'x-ignored': '1' },
      settings: { add_http_cors_header: 1 },
    })
    const { url, headers } = buildRequest(options, {
      queryId: 'q',
      httpCompression: 'gzip',
      binaryBody: true,
    })
    expect(headers).toEqual({ 'content-type': 'text/plain;charset=UTF-8' })
    expect(fields(url)).toEqual([
      ['query_id', 'q'],
      ['add_http_cors_header', '1'],
      ['enable_http_compression', '1'],
      ['user', 'carol'],
      ['password', 'pw-5678'],
    ])
    expect(() => resolveOptions({ url: 'http://h:1', simpleRequests: true, auth: 'basic' })).toThrow(
      /simple requests/,
    )
  })

  it('simple requests ask for the CORS header unless the settings say otherwise', () => {
    const request = (settings?: Record<string, number>) =>
      fields(
        buildRequest(resolveOptions({ url: 'http://h:1', simpleRequests: true, settings }), { queryId: 'q' })
          .url,
      )
    expect(request()).toEqual([
      ['query_id', 'q'],
      ['add_http_cors_header', '1'],
      ['user', 'default'],
    ])
    expect(request({ add_http_cors_header: 0 })).toEqual([
      ['query_id', 'q'],
      ['add_http_cors_header', '0'],
      ['user', 'default'],
    ])
    const normal = buildRequest(resolveOptions({ url: 'http://h:1' }), { queryId: 'q' })
    expect(fields(normal.url)).toEqual([['query_id', 'q']])
  })

  it('adds session, compression and query fields; a bare request has none', () => {
    const options = resolveOptions({
      url: 'http://h:1/base?extra=1',
      sessionId: 's1',
      sessionTimeoutSeconds: 30,
      sessionCheck: true,
    })
    const insert = buildRequest(options, {
      queryId: 'q',
      queryInUrl: 'INSERT INTO t FORMAT Native',
      framedBody: true,
      framedResponse: true,
      gzipBody: true,
      binaryBody: true,
    })
    expect(fields(insert.url)).toEqual([
      ['extra', '1'],
      ['query', 'INSERT INTO t FORMAT Native'],
      ['query_id', 'q'],
      ['session_id', 's1'],
      ['session_timeout', '30'],
      ['session_check', '1'],
      ['decompress', '1'],
      ['compress', '1'],
    ])
    expect(insert.headers['content-encoding']).toBe('gzip')
    expect(insert.headers['content-type']).toBe('application/octet-stream')
    const outside = buildRequest(options, { queryId: 'k', inSession: false })
    expect(fields(outside.url)).toEqual([
      ['extra', '1'],
      ['query_id', 'k'],
    ])
    expect(buildRequest(options, { queryId: 'p', path: 'ping', bare: true }).url).toBe('http://h:1/ping')
  })

  it('leaves the method of framed answers to the server, unless the caller sets it', () => {
    const method = (compression: Parameters<typeof resolveOptions>[0]['compression'], settings = {}) =>
      new URL(
        buildRequest(resolveOptions({ url: 'http://h:1', compression, settings }), {
          queryId: 'q',
          framedResponse: true,
        }).url,
      ).searchParams.get('network_compression_method')
    // Not named for the caller: a readonly = 1 profile refuses any setting sent, this one too.
    expect(method({ request: 'lz4', response: 'frames' })).toBeNull()
    expect(method({ response: 'frames' })).toBeNull()
    expect(method({ response: 'frames' }, { network_compression_method: 'lz4' })).toBe('lz4')
  })

  it('rejects setting names that are not identifiers', () => {
    const options = resolveOptions({ url: 'http://h:1' })
    expect(() => buildRequest(options, { queryId: 'q', settings: { 'a&b': 1 } })).toThrow(
      /invalid setting name/,
    )
  })

  it('quotes identifiers and strings as the transport does (protocol quoting), and credentials', () => {
    expect(quoteSqlIdentifier('we`ird\\name')).toBe('`we\\`ird\\\\name`')
    expect(quoteSqlString("it's \\ here")).toBe("'it\\'s \\\\ here'")
    expect(basicAuthorization(resolveOptions({ url: 'http://h:1', username: 'ü', password: '' }))).toBe(
      `Basic ${btoa('\xc3\xbc:')}`,
    )
  })
})
