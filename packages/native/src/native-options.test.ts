import { describe, expect, it } from 'vitest'
import { parseNativeUrl } from './native-options.js'

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
      'a native URL looks like clickhouse://host:9000,host2:9000/database?options',
    )
    expect(() => parseNativeUrl('clickhouse://u:secret@h:99999')).toThrow('invalid port in "h:99999"')
    expect(() => parseNativeUrl('clickhouse:///db')).toThrow('names no host')
  })
})
