import { UsageError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { describeEndpoints, parseClientUrl, resolveClientOptions } from './client-options.js'

describe('parseClientUrl', () => {
  it('picks the transport and default port from the scheme', () => {
    expect(parseClientUrl('clickhouse://h')).toMatchObject({
      kind: 'native',
      secure: false,
      endpoints: [{ host: 'h', port: 9000 }],
    })
    expect(parseClientUrl('clickhouses://h')).toMatchObject({
      kind: 'native',
      secure: true,
      endpoints: [{ host: 'h', port: 9440 }],
    })
    expect(parseClientUrl('http://h')).toMatchObject({
      kind: 'http',
      secure: false,
      endpoints: [{ host: 'h', port: 8123 }],
    })
    expect(parseClientUrl('HTTPS://h')).toMatchObject({
      kind: 'http',
      secure: true,
      endpoints: [{ host: 'h', port: 8443 }],
    })
  })

  it('reads several hosts, IPv6 literals, credentials and the database', () => {
    const parsed = parseClientUrl(
      'clickhouse://us%40r:p%3Ass@a:1,[::1]:2, b /db?max_threads=2&int64=string&user=x',
    )
    expect(parsed.endpoints).toEqual([
      { host: 'a', port: 1 },
      { host: '::1', port: 2 },
      { host: 'b', port: 9000 },
    ])
    expect(parsed).toMatchObject({ username: 'x', password: 'p:ss', database: 'db' })
    expect(parsed.options).toEqual({ int64: 'string' })
    expect(parsed.settings).toEqual({ max_threads: '2' })
  })

  it('keeps an HTTP path as a prefix and takes the database from ?database=', () => {
    expect(parseClientUrl('http://h:1/proxy/ch/?database=d')).toMatchObject({
      path: '/proxy/ch/',
      database: 'd',
    })
  })

  it('turns camelCase parameters into options of the right type and the rest into settings', () => {
    const parsed = parseClientUrl(
      'http://h/?requestTimeoutMs=5&hostStrategy=round-robin&secure=1&send_logs_level=trace&insertBlockRows=7',
    )
    expect(parsed.options).toEqual({
      requestTimeoutMs: 5,
      hostStrategy: 'round-robin',
      secure: true,
      insertBlockRows: 7,
    })
    expect(parsed.settings).toEqual({ send_logs_level: 'trace' })
  })

  it('reads maxBlockBytes from the URL as a number, for both schemes', () => {
    expect(parseClientUrl('http://h/?maxBlockBytes=16777216').options).toEqual({ maxBlockBytes: 16_777_216 })
    expect(resolveClientOptions('clickhouse://h?maxBlockBytes=1024').maxBlockBytes).toBe(1024)
    expect(resolveClientOptions({ url: 'http://h', maxBlockBytes: 2048 }).maxBlockBytes).toBe(2048)
  })

  it('refuses other schemes, empty host lists and bad ports, without echoing a password', () => {
    expect(() => parseClientUrl('postgres://u:secret-pw@h')).toThrow(
      /clickhouse:\/\/, clickhouses:\/\/, http:\/\/ or https:\/\//,
    )
    expect(() => parseClientUrl('postgres://u:secret-pw@h')).not.toThrow(/secret-pw/)
    expect(() => parseClientUrl('http://')).toThrow('names no host')
    expect(() => parseClientUrl('http://h:70000')).toThrow('invalid port')
  })
})

describe('resolveClientOptions', () => {
  it('lets explicit options win over the URL and joins hosts of several URLs', () => {
    const options = resolveClientOptions({
      url: ['http://u:p@a:1/?max_threads=2&int64=string', 'http://b:2/?max_threads=3'],
      password: 'explicit',
      int64: 'number',
      settings: { max_threads: 4 },
    })
    expect(options).toMatchObject({
      username: 'u',
      password: 'explicit',
      int64: 'number',
      settings: { max_threads: 4 },
    })
    expect(options.endpoints).toEqual([
      { host: 'a', port: 1 },
      { host: 'b', port: 2 },
    ])
  })

  it("takes ClickHouse's load_balancing names for hostStrategy, resolved to the hyphenated ones", () => {
    const strategy = (input: Parameters<typeof resolveClientOptions>[0]) =>
      resolveClientOptions(input).hostStrategy
    expect(strategy('clickhouse://a,b')).toBeUndefined()
    expect(strategy('clickhouse://a,b?hostStrategy=round_robin')).toBe('round-robin')
    expect(strategy('clickhouse://a,b?hostStrategy=first-or-random')).toBe('first-or-random')
    expect(strategy({ url: 'http://a,b', hostStrategy: 'first_or_random' })).toBe('first-or-random')
    // The setting picks the client's strategy too, and still goes to the server.
    const fromSetting = resolveClientOptions('http://a,b/?load_balancing=round_robin')
    expect([fromSetting.hostStrategy, fromSetting.settings]).toEqual([
      'round-robin',
      { load_balancing: 'round_robin' },
    ])
    expect(strategy({ url: 'clickhouse://a,b', settings: { load_balancing: 'in_order' } })).toBe('in-order')
    // hostStrategy wins over the setting, which then only tells the server.
    expect(strategy('clickhouse://a,b?load_balancing=random&hostStrategy=in_order')).toBe('in-order')
    // A policy only a server can apply stays a setting, the client keeps its default.
    const serverOnly = resolveClientOptions('clickhouse://a,b?load_balancing=nearest_hostname')
    expect([serverOnly.hostStrategy, serverOnly.settings]).toEqual([
      undefined,
      { load_balancing: 'nearest_hostname' },
    ])
    expect(() =>
      resolveClientOptions({ url: 'clickhouse://a,b', hostStrategy: 'nearest_hostname' as never }),
    ).toThrow(/^hostStrategy nearest_hostname ranks replicas by host name distance/)
    expect(() => resolveClientOptions('clickhouse://a?hostStrategy=fastest')).toThrow(
      'hostStrategy must be in-order, round-robin, random or first-or-random (or in_order, round_robin, first_or_random), got fastest',
    )
  })

  it('takes discoverCluster as an option and a URL parameter, and checks it', () => {
    expect(resolveClientOptions('clickhouse://a?discoverCluster=main').discoverCluster).toBe('main')
    expect(
      resolveClientOptions({ url: 'http://a', discoverCluster: { cluster: 'main', shard: 1 } })
        .discoverCluster,
    ).toEqual({
      cluster: 'main',
      shard: 1,
    })
    expect(() =>
      resolveClientOptions({ url: 'http://a', discoverCluster: { cluster: 'main', shard: -1 } }),
    ).toThrow('discoverCluster.shard must be a shard number from 1, got -1')
  })

  it('refuses unknown options, naming the settings route', () => {
    expect(() => resolveClientOptions({ url: 'http://h', max_threads: 2 } as never)).toThrow(
      'unknown client option "max_threads": ClickHouse settings go in `settings`',
    )
  })

  it("names ours for @clickhouse/client's option names, not the settings route", () => {
    const message = (key: string) => {
      try {
        resolveClientOptions({ url: 'http://h', [key]: 1 } as never)
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError)
        return (error as Error).message
      }
      throw new Error(`${key} was accepted`)
    }
    const renamed = {
      request_timeout: 'requestTimeoutMs',
      max_open_connections: 'maxConnections',
      clickhouse_settings: 'settings',
      session_id: 'sessionId',
      http_headers: 'httpHeaders',
      additional_headers: 'httpHeaders',
      host: 'url',
      role: 'roles',
    }
    for (const [theirs, ours] of Object.entries(renamed))
      expect(message(theirs)).toBe(
        `unknown client option "${theirs}": @clickhouse/client's ${theirs} is \`${ours}\` here`,
      )
    expect(message('keep_alive')).toBe(
      'unknown client option "keep_alive": @clickhouse/client\'s keep_alive: `idleTimeoutMs` (how long an unused connection is kept; keep_alive.idle_socket_ttl) — connections are always kept alive',
    )
    expect(message('log')).toBe(
      'unknown client option "log": @clickhouse/client\'s log: `logger` (an object with debug/info/warn/error methods) and `logLevel`',
    )
    for (const key of Object.keys(renamed)) expect(message(key)).not.toContain('settings: {')
    // Their names that are ours too work as they are.
    const same = resolveClientOptions({
      url: 'http://h',
      username: 'u',
      password: 'p',
      database: 'd',
      application: 'app',
    })
    expect(same).toMatchObject({ username: 'u', password: 'p', database: 'd', clientName: 'app' })
  })

  it('suggests the option a near miss meant', () => {
    expect(() => resolveClientOptions({ url: 'http://h', requestTimeoutMS: 5 } as never)).toThrow(
      'unknown client option "requestTimeoutMS": did you mean `requestTimeoutMs`?',
    )
    expect(() => resolveClientOptions({ url: 'http://h', setting: {} } as never)).toThrow(
      'unknown client option "setting": did you mean `settings`?',
    )
    expect(() => resolveClientOptions({ url: 'http://h', maxThreads: 2 } as never)).toThrow(
      'unknown client option "maxThreads": see ClientOptions for the options there are (ClickHouse settings go in `settings`)',
    )
  })

  it('takes sessionTimeoutSeconds as an option and as a URL parameter', () => {
    expect(resolveClientOptions('http://h?sessionId=s&sessionTimeoutSeconds=30')).toMatchObject({
      sessionId: 's',
      sessionTimeoutSeconds: 30,
      settings: {},
    })
  })

  it("takes simpleRequests, the http package's option, as an option and as a URL parameter", () => {
    expect(resolveClientOptions({ url: 'http://h', simpleRequests: true }).simpleRequests).toBe(true)
    expect(resolveClientOptions({ url: 'http://h', simpleRequests: false }).simpleRequests).toBe(false)
    expect(resolveClientOptions('http://h').simpleRequests).toBeUndefined()
    expect(resolveClientOptions('http://h?simpleRequests=1').simpleRequests).toBe(true)
    expect(resolveClientOptions('http://h?simpleRequests=0').simpleRequests).toBe(false)
    // Not a setting: nothing of it reaches the server.
    expect(resolveClientOptions('http://h?simpleRequests=true').settings).toEqual({})
  })

  it('describes endpoints without the password', () => {
    const options = resolveClientOptions('clickhouses://me:hunter22@[::1]:9440,b/db')
    expect(describeEndpoints(options)).toBe('clickhouses://me@[::1]:9440,b:9440/db')
  })

  it('prints a URL that parses back to the same endpoints, user, database and path prefix', () => {
    const cases: [string, string][] = [
      ['http://me:secret@h:8123?database=analytics', 'http://me@h:8123?database=analytics'],
      ['https://h/proxy/ch/?database=a%20b', 'https://default@h:8443/proxy/ch/?database=a%20b'],
      ['http://h:8123', 'http://default@h:8123'],
      ['clickhouse://u:p@h:9000/db', 'clickhouse://u@h:9000/db'],
      ['clickhouse://h/my%20db', 'clickhouse://default@h:9000/my%20db'],
    ]
    for (const [url, printed] of cases) {
      const options = resolveClientOptions(url)
      expect(describeEndpoints(options)).toBe(printed)
      const again = resolveClientOptions(describeEndpoints(options))
      for (const key of ['kind', 'secure', 'endpoints', 'username', 'database', 'httpPath'] as const)
        expect(again[key], `${url}: ${key}`).toEqual(options[key])
      expect(again.password).toBe('')
    }
  })

  it('prints that URL in toString, toJSON and inspect', async () => {
    const { createClient } = await import('./index.js')
    const { inspect } = await import('node:util')
    const client = createClient('http://me:secret@h:8123?database=analytics')
    try {
      expect(String(client)).toBe('ClickwireClient(http://me@h:8123?database=analytics)')
      expect(inspect(client)).toBe('ClickwireClient(http://me@h:8123?database=analytics)')
      expect(JSON.parse(JSON.stringify(client))).toEqual({
        transport: 'http',
        url: 'http://me@h:8123?database=analytics',
      })
    } finally {
      await client.close()
    }
  })
})
