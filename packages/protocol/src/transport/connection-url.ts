import { UsageError } from '../errors/usage-error.js'

/** One `host:port` of a connection URL. */
export interface UrlEndpoint {
  readonly host: string
  readonly port: number
}

/** What a `clickhouse://`, `clickhouses://`, `http://` or `https://` URL says, before any meaning is given to its parameters. */
export interface ConnectionUrl {
  /** The scheme with its colon, lower-cased: `clickhouse:`, `clickhouses:`, `http:` or `https:`. */
  readonly scheme: string
  /** One or more hosts, comma-separated in the URL (which WHATWG URLs do not allow). */
  readonly endpoints: UrlEndpoint[]
  /** Percent-decoded; undefined when the URL has no credentials. */
  readonly username?: string | undefined
  /** Percent-decoded; undefined when the URL has no `:` in its credentials. */
  readonly password?: string | undefined
  /** The path as written (`/db`, `/prefix/`), or `''`. */
  readonly rawPath: string
  /** The path without its first `/`, percent-decoded (`db`), or `''`. */
  readonly path: string
  /** The query parameters, decoded, in order. */
  readonly parameters: [string, string][]
}

const schemes = new Set(['clickhouse:', 'clickhouses:', 'http:', 'https:'])

/**
 * The advice every credential problem gets. It never quotes the URL: once the split between
 * the credentials and the hosts is in doubt, any part of the URL may be the password.
 */
const encodeAdvice =
  'percent-encode the characters @ : / ? # % in the user name and password (%40 %3A %2F %3F %23 %25), or pass them as the username/password options'

function decodePart(text: string, part: string, what: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new UsageError(
      `cannot read the ${part} of the ${what}: a % is not followed by two hex digits; ${encodeAdvice}`,
    )
  }
}

/**
 * Takes a connection URL apart, for every transport: `scheme://user:password@host1:port,host2/path?parameters`.
 *
 * Credentials end at the last `@` before the hosts, so an `@` that a password forgot to
 * encode still splits right. Anything else a password did not encode (`/`, `?`, `#`) would
 * move part of it into the hosts or the path; such a URL is refused with an error that names
 * the problem and quotes no part of the URL, since any part of it may be the secret. Hosts may
 * not contain `@`, so no credential can reach a resolver error message as a host name.
 *
 * @example
 * ```ts
 * parseConnectionUrl('clickhouse://u:p%40ss@h1:9000,h2/db?compression=zstd')
 * // { scheme: 'clickhouse:', endpoints: [{ host: 'h1', port: 9000 }, { host: 'h2', port: 9000 }],
 * //   username: 'u', password: 'p@ss', rawPath: '/db', path: 'db', parameters: [['compression', 'zstd']] }
 * ```
 */
export function parseConnectionUrl(
  url: string,
  defaultPorts: Readonly<Record<string, number>>,
  /** What messages call the URL: `client URL`, `native URL`. */
  what = 'URL',
): ConnectionUrl {
  const text = String(url).trim()
  const schemeEnd = text.indexOf('://')
  const scheme = schemeEnd > 0 ? text.slice(0, schemeEnd + 1).toLowerCase() : ''
  if (!schemes.has(scheme) || !(scheme in defaultPorts)) {
    const names = Object.keys(defaultPorts).map((name) => `${name}//`)
    const known = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('')
    // Only the scheme is quoted: it comes before any credential.
    throw new UsageError(
      `cannot read the ${what}: it starts with ${known}${scheme ? `, not ${scheme}//` : ' (it has no scheme)'}`,
    )
  }
  const rest = text.slice(schemeEnd + 3)
  // The hosts start after the last @ of the part before the path, query or fragment; an @
  // inside a query value (?quota_key=a@b) is not a credential separator.
  const beforeQuery = rest.search(/[?#]/)
  const head = beforeQuery < 0 ? rest : rest.slice(0, beforeQuery)
  const at = head.lastIndexOf('@')
  const credentials = at < 0 ? undefined : rest.slice(0, at)
  const afterCredentials = at < 0 ? rest : rest.slice(at + 1)
  const authorityEnd = afterCredentials.search(/[/?#]/)
  const hostList = authorityEnd < 0 ? afterCredentials : afterCredentials.slice(0, authorityEnd)
  const tail = authorityEnd < 0 ? '' : afterCredentials.slice(authorityEnd)
  const fragment = tail.indexOf('#')
  const withoutFragment = fragment < 0 ? tail : tail.slice(0, fragment)
  const queryStart = withoutFragment.indexOf('?')
  const rawPath = queryStart < 0 ? withoutFragment : withoutFragment.slice(0, queryStart)
  const query = queryStart < 0 ? '' : withoutFragment.slice(queryStart + 1)
  const defaultPort = defaultPorts[scheme]!
  const endpoints = hostList
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const address = /^\s*(?:\[([0-9A-Fa-f:.]+)\]|([^\s@:/?#[\],]+))(?::(\d{1,5}))?\s*$/.exec(part)
      // The part may be a piece of a password that was not encoded: say so, quote nothing.
      if (!address) throw new UsageError(`cannot read the hosts of the ${what}; ${encodeAdvice}`)
      const port = address[3] === undefined ? defaultPort : Number(address[3])
      if (!(port > 0 && port < 65_536))
        throw new UsageError(`invalid port in the ${what} (a port is between 1 and 65535); ${encodeAdvice}`)
      return { host: address[1] ?? decodePart(address[2]!, 'host', what), port }
    })
  if (endpoints.length === 0) throw new UsageError(`the ${what} names no host`)
  let username: string | undefined
  let password: string | undefined
  if (credentials !== undefined) {
    const colon = credentials.indexOf(':')
    username = decodePart(colon < 0 ? credentials : credentials.slice(0, colon), 'user name', what)
    if (colon >= 0) password = decodePart(credentials.slice(colon + 1), 'password', what)
  }
  const parameters: [string, string][] = []
  // forEach, not iteration: the build's lib has no DOM.Iterable (the package runs anywhere).
  new URLSearchParams(query).forEach((value, key) => {
    parameters.push([key, value])
  })
  // No setting or option name has an @, and a fragment means nothing here: an @ there is the
  // rest of a password whose ? or # was not encoded, and the part before it reached the hosts.
  if (
    tail.slice(fragment < 0 ? tail.length : fragment).includes('@') ||
    parameters.some(([key]) => key.includes('@'))
  )
    throw new UsageError(`cannot read the ${what}; ${encodeAdvice}`)
  const path = rawPath.length > 1 ? decodePart(rawPath.slice(1), 'path', what) : ''
  return { scheme, endpoints, username, password, rawPath, path, parameters }
}
