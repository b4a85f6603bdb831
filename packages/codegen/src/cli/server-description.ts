import { parseClientUrl } from '@clickwire/client'
import { redactSecrets } from '@clickwire/protocol'

/**
 * A server URL for messages: scheme, user, hosts and database, never the password (nor
 * other URL parameters, which may carry one). `clickhouse://u:secret@h:9000/db?x=1` ->
 * `clickhouse://u@h:9000/db`; `http://u:secret@h/?database=db&password=secret` ->
 * `http://u@h:8123?database=db`.
 */
export function describeServer(url: string): string {
  try {
    const parsed = parseClientUrl(url)
    const scheme = `${parsed.kind === 'native' ? 'clickhouse' : 'http'}${parsed.secure ? 's' : ''}://`
    const user = parsed.username === undefined ? '' : `${encodeURIComponent(parsed.username)}@`
    const hosts = parsed.endpoints
      .map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`)
      .join(',')
    // Native URLs name the database in the path, HTTP ones in `?database=` (the path may be a prefix).
    const database = parsed.database === undefined ? undefined : encodeURIComponent(parsed.database)
    if (parsed.kind === 'native')
      return `${scheme}${user}${hosts}${database === undefined ? '' : `/${database}`}`
    const prefix = parsed.path === '/' ? '' : parsed.path
    return `${scheme}${user}${hosts}${prefix}${database === undefined ? '' : `?database=${database}`}`
  } catch {
    return redactSecrets(url.replace(/[?#].*$/s, ''))
  }
}
