import { UsageError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { type ClientOptions, resolveClientOptions } from './client-options.js'
import { chooseSimpleRequests, pageOrigin } from './simple-requests.js'

/** The choice for `options` on a page of `origin` (undefined: Node, no CORS). */
function choose(options: string | ClientOptions, origin: string | undefined): boolean {
  return chooseSimpleRequests(resolveClientOptions(options), origin)
}

describe('chooseSimpleRequests', () => {
  it('in Node (no page origin) sends normal requests unless told', () => {
    expect(choose('http://h:8123', undefined)).toBe(false)
    expect(choose({ url: 'http://h:8123', simpleRequests: true }, undefined)).toBe(true)
    expect(choose({ url: 'http://h:8123', simpleRequests: false }, undefined)).toBe(false)
    expect(choose('http://h:8123?simpleRequests=1', undefined)).toBe(true)
  })

  it('on a page of another origin picks simple requests by itself', () => {
    expect(choose('http://h:8123', 'http://app.example')).toBe(true)
    // Another port is another origin; a file:// page has the origin "null".
    expect(choose('http://h:8123', 'http://h:8080')).toBe(true)
    expect(choose('http://h:8123', 'https://h:8123')).toBe(true)
    expect(choose('http://h:8123', 'null')).toBe(true)
    expect(choose({ url: 'http://h:8123', username: 'reader', password: 'pw' }, 'http://app')).toBe(true)
    expect(choose({ url: 'http://h:8123', auth: 'url' }, 'http://app')).toBe(true)
    expect(choose({ url: 'http://h:8123', auth: 'none' }, 'http://app')).toBe(true)
    // Frames compress the body itself, with no header.
    expect(choose({ url: 'http://h:8123', compression: 'zstd' }, 'http://app')).toBe(true)
    expect(choose({ url: 'http://h:8123', simpleRequests: false }, 'http://app')).toBe(false)
  })

  it('on a page of the server’s own origin needs no CORS: normal requests', () => {
    expect(choose('http://h:8123', 'http://h:8123')).toBe(false)
    // Default ports are left out of origins.
    expect(choose('http://h:80', 'http://h')).toBe(false)
    expect(choose('https://h:443/ch', 'https://h')).toBe(false)
    expect(choose('https://h', 'https://h')).toBe(true) // https:// defaults to 8443
    expect(choose('http://[::1]:8123', 'http://[::1]:8123')).toBe(false)
    // One host of another origin is enough.
    expect(choose({ url: ['http://h:8123', 'http://other:8123'] }, 'http://h:8123')).toBe(true)
    expect(choose({ url: 'http://h:8123', simpleRequests: true }, 'http://h:8123')).toBe(true)
  })

  it('refuses options that need a header rather than send requests that wait for a preflight', () => {
    const refusals: Array<[ClientOptions, RegExp]> = [
      [{ url: 'http://h:8123', auth: 'basic' }, /auth "basic"/],
      [{ url: 'http://h:8123', auth: 'headers' }, /auth "headers"/],
      [{ url: 'http://h:8123', compression: 'gzip' }, /gzip request compression/],
      [{ url: 'http://h:8123', compression: { request: ['gzip'] } }, /gzip request compression/],
    ]
    for (const [options, detail] of refusals) {
      const auto = () => choose(options, 'http://app.example')
      expect(auto).toThrow(UsageError)
      expect(auto).toThrow(detail)
      expect(auto).toThrow(/origin http:\/\/app\.example.*simpleRequests: false/)
      const forced = () => choose({ ...options, simpleRequests: true }, undefined)
      expect(forced).toThrow(UsageError)
      expect(forced).toThrow(detail)
      // Told to send normal requests, or with no CORS in the way, they go as they are.
      expect(choose({ ...options, simpleRequests: false }, 'http://app.example')).toBe(false)
      expect(choose(options, undefined)).toBe(false)
      expect(choose(options, 'http://h:8123')).toBe(false)
    }
    // Custom headers (`httpHeaders`), the same way; none is none.
    const headers = { url: 'http://h:8123', httpHeaders: { 'x-trace': '1' } }
    expect(() => choose(headers, 'http://app')).toThrow(/httpHeaders/)
    expect(() => choose({ ...headers, simpleRequests: true }, undefined)).toThrow(/httpHeaders/)
    expect(choose({ ...headers, simpleRequests: false }, 'http://app')).toBe(false)
    expect(choose({ url: 'http://h:8123', httpHeaders: {} }, 'http://app')).toBe(true)
  })

  it('leaves native URLs alone', () => {
    expect(choose('clickhouse://h:9000', 'http://app')).toBe(false)
    expect(choose({ url: 'clickhouse://h:9000', simpleRequests: true }, undefined)).toBe(false)
  })

  it('reads the page origin from location, where there is one', () => {
    // The unit tests run in Node: no location.
    expect(pageOrigin()).toBeUndefined()
    const global = globalThis as { location?: unknown }
    global.location = { origin: 'http://app.example:3000' }
    try {
      expect(pageOrigin()).toBe('http://app.example:3000')
    } finally {
      delete global.location
    }
  })
})
