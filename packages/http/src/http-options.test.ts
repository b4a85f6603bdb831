import { UsageError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { resolveOptions } from './http-options.js'

const url = 'http://localhost:8123'

describe('resolveOptions', () => {
  it('takes the client names: receiveTimeoutMs, idleTimeoutMs, maxConnections, requestTimeoutMs', () => {
    const resolved = resolveOptions({
      url,
      receiveTimeoutMs: 7,
      idleTimeoutMs: 8,
      maxConnections: 3,
      requestTimeoutMs: 9,
      connectTimeoutMs: 10,
    })
    expect(resolved).toMatchObject({
      receiveTimeoutMs: 7,
      idleTimeoutMs: 8,
      maxConnections: 3,
      requestTimeoutMs: 9,
      connectTimeoutMs: 10,
    })
  })

  it('applies the defaults', () => {
    expect(resolveOptions({ url })).toMatchObject({
      receiveTimeoutMs: 300_000,
      idleTimeoutMs: 2500,
      maxConnections: 10,
      requestTimeoutMs: 0,
      connectTimeoutMs: 10_000,
    })
  })

  it('takes maxBlockBytes (default 256 MiB) and checks it', () => {
    expect(resolveOptions({ url }).maxBlockBytes).toBe(256 * 1024 * 1024)
    expect(resolveOptions({ url, maxBlockBytes: 4096 }).maxBlockBytes).toBe(4096)
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => resolveOptions({ url, maxBlockBytes: bad })).toThrow(UsageError)
      expect(() => resolveOptions({ url, maxBlockBytes: bad })).toThrow(
        `maxBlockBytes must be a number >= 0, got ${bad}`,
      )
    }
  })

  it('still takes the deprecated keepAliveIdleMs and maxOpenConnections, the new names winning', () => {
    expect(resolveOptions({ url, keepAliveIdleMs: 5, maxOpenConnections: 2 })).toMatchObject({
      idleTimeoutMs: 5,
      maxConnections: 2,
    })
    expect(
      resolveOptions({ url, keepAliveIdleMs: 5, idleTimeoutMs: 6, maxOpenConnections: 2, maxConnections: 4 }),
    ).toMatchObject({ idleTimeoutMs: 6, maxConnections: 4 })
    expect(() => resolveOptions({ url, maxOpenConnections: 0 })).toThrow(
      new UsageError('maxConnections must be an integer >= 1, got 0'),
    )
  })

  it('takes a compression method name as the request compression', () => {
    expect(resolveOptions({ url, compression: 'zstd' })).toMatchObject({
      requestCompression: ['zstd'],
      responseCompression: undefined,
    })
    expect(resolveOptions({ url, compression: 'gzip' }).requestCompression).toEqual(['gzip'])
    expect(resolveOptions({ url, compression: 'none' }).requestCompression).toEqual([])
    expect(
      resolveOptions({ url, compression: { request: ['lz4', 'gzip'], response: 'frames' } }),
    ).toMatchObject({
      requestCompression: ['lz4', 'gzip'],
      responseCompression: 'frames',
    })
  })

  it("takes @clickhouse/client's booleans: true is gzip in that direction", () => {
    const both = (compression: Parameters<typeof resolveOptions>[0]['compression']) => {
      const resolved = resolveOptions({ url, compression })
      return [resolved.requestCompression, resolved.responseCompression]
    }
    expect(both({ request: true })).toEqual([['gzip'], undefined])
    expect(both({ response: true })).toEqual([[], 'gzip'])
    expect(both({ request: true, response: true })).toEqual([['gzip'], 'gzip'])
    expect(both({ request: false, response: false })).toEqual([[], undefined])
    expect(both({ request: 'zstd', response: true })).toEqual([['zstd'], 'gzip'])
    expect(both(true)).toEqual([['gzip'], 'gzip'])
    expect(both(false)).toEqual([[], undefined])
    expect(() => both({ response: 1 as never })).toThrow(
      'compression.response must be a method name, true or false, got 1',
    )
    expect(() => both([] as never)).toThrow(
      'compression must be a method name, true, false or { request, response, codecs }, got an array',
    )
  })
})
