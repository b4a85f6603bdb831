import { ConnectionError, UsageError } from '@clickwire/protocol'

/*
 * Loaded with import() on such an answer only: the words of these rare errors are no part
 * of a page's first load.
 */

/**
 * The error of an answer other than 200 that carries no ClickHouse exception: the server's
 * HTTP layer refused the request itself, before any query ran. Two refusals are known by
 * their words and said as what to do; any other is a ConnectionError with the status.
 */
export function refusedRequestError(status: number, text: string, address: string): Error {
  // 22.x on read the request line up to http_max_uri_size (1 MiB by default) and answer 400
  // with these words past it. {name:Type} values travel in the URL as param_ fields, so a
  // value of about 1 MB or more meets it (from 128 KB a value already meets
  // http_max_field_value_size, which the server reports as ClickHouseError 1000).
  if (status === 400 && /URI invalid or too long/i.test(text))
    return new UsageError(
      `the server refused the request's URL as too long (HTTP 400: ${text.slice(0, 200)}): its query parameters travel in the URL, which the server's http_max_uri_size bounds (1048576 bytes by default; a profile setting, which a URL cannot raise). Raise http_max_uri_size in the server's user profile, or send large values as an external table or through insert()`,
    )
  // A native port answers an HTTP request with this 400 of its own.
  const hint = /is for clickhouse-client program/.test(text)
    ? ' (this URL names the native port: use a clickhouse:// URL for it, or the HTTP port with http://)'
    : ''
  return new ConnectionError(`the server answered HTTP ${status}: ${text.slice(0, 500)}${hint}`, {
    code: `HTTP_${status}`,
    address,
  })
}
