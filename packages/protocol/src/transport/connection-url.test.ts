import { describe, expect, it } from 'vitest'
import { UsageError } from '../errors/usage-error.js'
import { parseConnectionUrl } from './connection-url.js'

const ports = { 'clickhouse:': 9000, 'clickhouses:': 9440, 'http:': 8123, 'https:': 8443 }

/** The error a parse throws, or undefined when it parses. */
function failure(url: string): Error | undefined {
  try {
    parseConnectionUrl(url, ports)
    return undefined
  } catch (error) {
    return error as Error
  }
}

/** Every 5-character piece of a secret: none may appear in what a failed parse says. */
function pieces(secret: string): string[] {
  const chars = [...secret]
  if (chars.length <= 5) return [secret]
  return chars.slice(0, chars.length - 4).map((_, i) => chars.slice(i, i + 5).join(''))
}

describe('parseConnectionUrl', () => {
  it('reads schemes, several hosts with default ports, IPv6, credentials, path and parameters', () => {
    expect(
      parseConnectionUrl('clickhouse://u:p%40ss@h1:9001,h2,[::1]:9002/my%20db?a=1&b=x%40y', ports),
    ).toEqual({
      scheme: 'clickhouse:',
      endpoints: [
        { host: 'h1', port: 9001 },
        { host: 'h2', port: 9000 },
        { host: '::1', port: 9002 },
      ],
      username: 'u',
      password: 'p@ss',
      rawPath: '/my%20db',
      path: 'my db',
      parameters: [
        ['a', '1'],
        ['b', 'x@y'],
      ],
    })
    expect(parseConnectionUrl('HTTPS://h', ports)).toMatchObject({
      scheme: 'https:',
      endpoints: [{ host: 'h', port: 8443 }],
      username: undefined,
      password: undefined,
      rawPath: '',
      path: '',
    })
    expect(parseConnectionUrl('http://user@h/prefix/', ports)).toMatchObject({
      username: 'user',
      password: undefined,
      rawPath: '/prefix/',
    })
  })

  it('splits at the last @ before the hosts, so unencoded @ and / in a password work', () => {
    expect(parseConnectionUrl('clickhouse://u:abc@SECRET@host:9000', ports)).toMatchObject({
      username: 'u',
      password: 'abc@SECRET',
      endpoints: [{ host: 'host', port: 9000 }],
    })
    expect(parseConnectionUrl('clickhouse://u:SECRET/abc@host:9000/db', ports)).toMatchObject({
      password: 'SECRET/abc',
      endpoints: [{ host: 'host', port: 9000 }],
      path: 'db',
    })
    // An @ in a query value is not a credential separator.
    expect(parseConnectionUrl('clickhouse://host/db?quota_key=me@corp', ports)).toMatchObject({
      username: undefined,
      endpoints: [{ host: 'host', port: 9000 }],
      parameters: [['quota_key', 'me@corp']],
    })
  })

  it('refuses an unencoded ? or # in a password, naming the problem and quoting nothing', () => {
    for (const url of [
      'http://u:SECRET?x@host:8123',
      'clickhouse://u:SEC#RET@host:9000',
      'clickhouse://u:12345?SECRET@host:9000',
      'clickhouse://u:12345#SECRET@host:9000',
      'clickhouse://u:99999#SECRET@host:9000',
    ]) {
      const error = failure(url)
      expect(UsageError.isInstance(error), url).toBe(true)
      expect(error!.message, url).toMatch(/percent-encode the characters @ : \/ \? # %/)
      expect(error!.message, url).not.toContain('SECRET')
      expect(error!.message, url).not.toContain('SEC')
      expect(error!.message, url).not.toContain('12345')
      expect(error!.message, url).not.toContain('99999')
    }
  })

  it('refuses other schemes, no host, bad ports and broken percent escapes without quoting the URL', () => {
    expect(failure('postgres://u:secret-pw@h')!.message).toBe(
      'cannot read the URL: it starts with clickhouse://, clickhouses://, http:// or https://, not postgres://',
    )
    expect(failure('h:9000')!.message).toContain('(it has no scheme)')
    expect(failure('clickhouse:///db')!.message).toBe('the URL names no host')
    expect(failure('clickhouse://u:secret-pw@h:0')!.message).toMatch(
      /^invalid port in the URL \(a port is between 1 and 65535\); percent-encode/,
    )
    const broken = failure('clickhouse://u:secret%zz-pw@h')!
    expect(broken.message).toMatch(
      /^cannot read the password of the URL: a % is not followed by two hex digits/,
    )
    expect(broken.message).not.toContain('secret')
  })

  it('keeps or refuses every printable and unicode password exactly, never echoing it', () => {
    const alphabet = [
      ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)),
      'é',
      '中',
      '🔑',
      'e\u0301',
      'ß',
      '\u00a0',
    ]
    // A deterministic generator: the test is the same on every run.
    let seed = 0x2545f491
    const next = () => {
      seed ^= seed << 13
      seed ^= seed >>> 17
      seed ^= seed << 5
      return (seed >>> 0) / 0x1_0000_0000
    }
    const passwords: string[] = alphabet.map((char) => `Zq${char}Xw${char}Vy7`)
    for (let i = 0; i < 400; i++) {
      const length = 6 + Math.floor(next() * 14)
      passwords.push(
        `Pk${Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')}`,
      )
    }
    let kept = 0
    let refused = 0
    for (const password of passwords) {
      // Percent-encoded, every password works.
      const encoded = parseConnectionUrl(
        `clickhouse://user:${encodeURIComponent(password)}@db.example:9000/db`,
        ports,
      )
      expect(encoded.password).toBe(password)
      expect(encoded.endpoints).toEqual([{ host: 'db.example', port: 9000 }])
      // As typed, it is kept exactly, or refused without a piece of it in the message.
      const url = `clickhouse://user:${password}@db.example:9000/db`
      const error = failure(url)
      if (error === undefined) {
        const parsed = parseConnectionUrl(url, ports)
        if (parsed.password === password) {
          expect(parsed.endpoints).toEqual([{ host: 'db.example', port: 9000 }])
          kept++
          continue
        }
        // A % sequence decoded: the password differs, but no piece of it may sit in a host.
        expect(password, url).toContain('%')
        for (const piece of pieces(password)) {
          expect(JSON.stringify(parsed.endpoints)).not.toContain(piece)
        }
        kept++
        continue
      }
      expect(UsageError.isInstance(error), url).toBe(true)
      for (const piece of pieces(password.trim())) expect(error.message, url).not.toContain(piece)
      refused++
    }
    expect(kept + refused).toBe(passwords.length)
    expect(kept).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
  })
})
