import { describe, expect, it } from 'vitest'
import { nativeOptionsFromUrl, parseNativeUrl } from './native-options.js'
import { createNativeTransport, type NativeTransportOptions } from './native-transport.js'

describe('parseNativeUrl', () => {
  it('reads credentials, several hosts, database and parameters', () => {
    expect(
      parseNativeUrl('clickhouse://u%40x:p%3Aw@h1:9001,h2,[::1]:9003/my%20db?compression=zstd&max_threads=2'),
    ).toEqual({
      hosts: [
        { host: 'h1', port: 9001 },
        { host: 'h2', port: 9000 },
        { host: '::1', port: 9003 },
      ],
      secure: false,
      username: 'u@x',
      password: 'p:w',
      database: 'my db',
      parameters: { compression: 'zstd', max_threads: '2' },
    })
  })

  it('uses port 9440 and TLS for clickhouses://', () => {
    const parsed = parseNativeUrl('clickhouses://localhost')
    expect(parsed.secure).toBe(true)
    expect(parsed.hosts).toEqual([{ host: 'localhost', port: 9440 }])
    expect(parsed.username).toBeUndefined()
  })

  it('rejects what is not a native URL, without echoing secrets', () => {
    expect(() => parseNativeUrl('http://h:8123')).toThrow(
      'cannot read the native URL: it starts with clickhouse:// or clickhouses://, not http://',
    )
    // A port is not quoted: a password that was not percent-encoded may have put part of itself there.
    expect(() => parseNativeUrl('clickhouse://u:secret@h:99999')).toThrow(
      'invalid port in the native URL (a port is between 1 and 65535); percent-encode',
    )
    expect(() => parseNativeUrl('clickhouse:///db')).toThrow('names no host')
  })
})

describe('nativeOptionsFromUrl', () => {
  it('splits our options from ClickHouse settings and turns on TLS for clickhouses://', () => {
    expect(
      nativeOptionsFromUrl(
        'clickhouses://u:p%40ss@h1,h2:9441/db?hostStrategy=round-robin&maxConnections=4&compression=zstd&max_threads=2&send_logs_level=error',
      ),
    ).toEqual({
      hosts: [
        { host: 'h1', port: 9440 },
        { host: 'h2', port: 9441 },
      ],
      username: 'u',
      password: 'p@ss',
      database: 'db',
      tls: {},
      hostStrategy: 'round-robin',
      maxConnections: 4,
      compression: 'zstd',
      settings: { max_threads: '2', send_logs_level: 'error' },
    })
    expect(nativeOptionsFromUrl('clickhouse://localhost')).toEqual({
      hosts: [{ host: 'localhost', port: 9000 }],
    })
    expect(() => nativeOptionsFromUrl('clickhouse://h?connectTimeoutMs=soon')).toThrow(
      'URL parameter connectTimeoutMs must be a number, got "soon"',
    )
  })

  it('gives createNativeTransport its options, with explicit ones on top, and checks them', () => {
    const native = createNativeTransport(
      'clickhouse://u:secret-pass@h:9001/db?max_threads=2&insertBlockRows=1000',
      {
        settings: { max_threads: 3, extremes: 1 },
        insertBlockRows: 500,
      },
    )
    expect(native.options).toMatchObject({
      hosts: [{ host: 'h', port: 9001 }],
      username: 'u',
      database: 'db',
      insertBlockRows: 500,
      settings: { max_threads: 3, extremes: 1 },
      compression: 'lz4',
    })
    expect(String(native)).toBe('NativeTransport(clickhouse://u@h:9001/db)')
    expect(() => createNativeTransport('clickhouse://h?compression=gzip')).toThrow(
      'compression must be lz4, zstd or none, got gzip',
    )
    expect(() => createNativeTransport({ hosts: [{ host: 'h', port: 1 }], maxConnections: 0 })).toThrow(
      'maxConnections must be a positive integer, got 0',
    )
    expect(() => createNativeTransport({ hosts: [] })).toThrow('the native transport needs at least one host')
  })

  it('takes maxBlockBytes (default 256 MiB) from options and the URL, and checks it', () => {
    expect(createNativeTransport('clickhouse://h').options.maxBlockBytes).toBe(256 * 1024 * 1024)
    expect(createNativeTransport('clickhouse://h?maxBlockBytes=4096').options.maxBlockBytes).toBe(4096)
    expect(
      createNativeTransport({ hosts: [{ host: 'h', port: 1 }], maxBlockBytes: 8192 }).options.maxBlockBytes,
    ).toBe(8192)
    for (const bad of [0, 1.5, -1])
      expect(() => createNativeTransport({ hosts: [{ host: 'h', port: 1 }], maxBlockBytes: bad })).toThrow(
        `maxBlockBytes must be a positive integer, got ${bad}`,
      )
  })

  it('takes requestTimeoutMs, and the deprecated queryTimeoutMs as its alias', () => {
    const hosts = [{ host: 'h', port: 1 }]
    expect(createNativeTransport({ hosts }).options.requestTimeoutMs).toBe(0)
    expect(createNativeTransport({ hosts, requestTimeoutMs: 7 }).options.requestTimeoutMs).toBe(7)
    expect(createNativeTransport({ hosts, queryTimeoutMs: 8 }).options.requestTimeoutMs).toBe(8)
    expect(
      createNativeTransport({ hosts, queryTimeoutMs: 8, requestTimeoutMs: 9 }).options.requestTimeoutMs,
    ).toBe(9)
    expect(createNativeTransport('clickhouse://h?queryTimeoutMs=5').options.requestTimeoutMs).toBe(5)
    expect(createNativeTransport('clickhouse://h?requestTimeoutMs=6').options.requestTimeoutMs).toBe(6)
    expect('queryTimeoutMs' in createNativeTransport({ hosts, queryTimeoutMs: 8 }).options).toBe(false)
  })

  it("takes ClickHouse's load_balancing names as hostStrategy, and swaps its hosts", () => {
    const hosts = [
      { host: 'a', port: 1 },
      { host: 'b', port: 2 },
    ]
    expect(createNativeTransport({ hosts, hostStrategy: 'first_or_random' }).options.hostStrategy).toBe(
      'first-or-random',
    )
    expect(createNativeTransport('clickhouse://a,b?hostStrategy=round_robin').options.hostStrategy).toBe(
      'round-robin',
    )
    expect(() => createNativeTransport({ hosts, hostStrategy: 'nearest_hostname' as never })).toThrow(
      /^hostStrategy nearest_hostname ranks replicas/,
    )
    const native = createNativeTransport({ hosts })
    native.setHosts([{ host: 'c', port: 3 }, hosts[0]!])
    expect(native.currentHosts).toEqual([
      { host: 'c', port: 3 },
      { host: 'a', port: 1 },
    ])
    expect(String(native)).toBe('NativeTransport(clickhouse://default@c:3,a:1/default)')
    expect(() => native.setHosts([])).toThrow('the native transport needs at least one host')
  })

  it('takes the compression option both transports share', () => {
    const hosts = [{ host: 'h', port: 1 }]
    const compression = (option: Partial<NativeTransportOptions>) =>
      createNativeTransport({ hosts, ...option }).options.compression
    expect(compression({})).toBe('lz4')
    expect(compression({ compression: 'zstd' })).toBe('zstd')
    expect(compression({ compression: 'none' })).toBe('none')
    expect(compression({ compression: { request: 'zstd' } })).toBe('zstd')
    expect(compression({ compression: {} })).toBe('none')
    expect(() => compression({ compression: 'gzip' })).toThrow(
      "native compression must be lz4, zstd or none, got gzip (gzip is HTTP's Content-Encoding)",
    )
    // @clickhouse/client's boolean shape: one method both ways, so true on either side is lz4.
    expect(compression({ compression: true })).toBe('lz4')
    expect(compression({ compression: false })).toBe('none')
    expect(compression({ compression: { request: true } })).toBe('lz4')
    expect(compression({ compression: { response: true } })).toBe('lz4')
    expect(compression({ compression: { request: false, response: true } })).toBe('lz4')
    expect(compression({ compression: { request: false, response: false } })).toBe('none')
    expect(compression({ compression: { request: 'zstd', response: true } })).toBe('zstd')
    expect(() => compression({ compression: { request: 1 as never } })).toThrow(
      'compression.request must be a method name, a list of them, true or false, got 1',
    )
    expect(() => compression({ compression: 7 as never })).toThrow(
      'compression must be a method name, true, false or { request, response, codecs }, got 7',
    )
    expect(() => compression({ compression: { request: 'lz4', response: 'gzip' } })).toThrow(
      'response compression gzip is HTTP only: native answers use the request method (lz4, zstd or none)',
    )
    expect(() => compression({ compression: { request: ['lz4', 'gzip'] } })).toThrow(
      'native compression takes one method, got lz4, gzip',
    )
  })
})
