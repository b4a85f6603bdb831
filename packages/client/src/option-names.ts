/**
 * Option names of @clickhouse/client and what clickwire calls them: the one table behind
 * the hints of unknown client options and unknown call options, and the names a
 * compatibility layer translates.
 */

/** Where a @clickhouse/client name has a clickwire counterpart. */
export interface ClickhouseClientName {
  /** Our client option of the same meaning, when it is a plain rename. */
  readonly clientOption?: string | undefined
  /** What to do instead at client level, when it is not a plain rename (shown as is). */
  readonly clientHint?: string | undefined
  /** Our call option of the same meaning, when it is a plain rename. */
  readonly callOption?: string | undefined
  /** What to do instead in a call, when it is not a plain rename (shown as is). */
  readonly callHint?: string | undefined
}

/**
 * @clickhouse/client's names (createClient options and query/insert/command/exec
 * parameters) with ours. Read by the client-option and call-option checks, and exported
 * for code that accepts @clickhouse/client's shapes.
 */
export const clickhouseClientNames: Readonly<Record<string, ClickhouseClientName>> = {
  clickhouse_settings: { clientOption: 'settings', callOption: 'settings' },
  query_params: { callOption: 'params', clientHint: 'parameters are per call: `params` in its options' },
  abort_signal: { callOption: 'signal' },
  query_id: { callOption: 'queryId' },
  session_id: {
    clientOption: 'sessionId',
    callHint:
      'a session is opened once and its calls keep its state: `await using s = await client.session()` (or the client option `sessionId`)',
  },
  session_timeout: { clientOption: 'sessionTimeoutSeconds' },
  request_timeout: { clientOption: 'requestTimeoutMs', callOption: 'timeoutMs' },
  max_open_connections: { clientOption: 'maxConnections' },
  keep_alive: {
    clientHint:
      '`idleTimeoutMs` (how long an unused connection is kept; keep_alive.idle_socket_ttl) — connections are always kept alive',
  },
  http_headers: { clientOption: 'httpHeaders', callOption: 'httpHeaders' },
  additional_headers: { clientOption: 'httpHeaders' },
  log: { clientHint: '`logger` (an object with debug/info/warn/error methods) and `logLevel`' },
  host: { clientOption: 'url' },
  role: { clientOption: 'roles' },
  pathname: { clientHint: 'put the path in the `url` (http://host:8123/path)' },
  set_basic_auth_header: { clientHint: "`auth: 'basic'` (the default) or `auth: 'headers'`" },
  http_agent: { clientHint: '`fetch` (a fetch implementation to send requests with)' },
  format: {
    clientHint: 'the format is per call: `queryRaw(sql, { format })` or `insertRaw(table, body, { format })`',
    callHint:
      'query() returns typed rows, whatever the format; for bytes in a format use `queryRaw(sql, { format })` (and `insertRaw(table, body, { format })` to insert them)',
  },
  query: { callHint: 'the statement is the first argument: `query(sql, options)`' },
  table: { callHint: 'the table is the first argument: `insert(table, values, options)`' },
  values: { callHint: 'the values are the second argument: `insert(table, values, options)`' },
}

/** The sentence a @clickhouse/client name gets, at client level or in a call; undefined when it has none there. */
export function clickhouseClientHint(name: string, where: 'client' | 'call'): string | undefined {
  if (!Object.hasOwn(clickhouseClientNames, name)) return undefined
  const known = clickhouseClientNames[name]!
  const option = where === 'client' ? known.clientOption : known.callOption
  const hint = where === 'client' ? known.clientHint : known.callHint
  if (option !== undefined) return `@clickhouse/client's ${name} is \`${option}\` here`
  if (hint !== undefined) return `@clickhouse/client's ${name}: ${hint}`
  return undefined
}

/**
 * The known name `name` most likely meant: the same but for case, or a small edit away
 * (one edit for short names, two for longer ones). Undefined when none is that close.
 */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase()
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  const allowed = lower.length <= 4 ? 1 : 2
  return bestDistance <= allowed ? best : undefined
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit. */
function editDistance(a: string, b: string): number {
  if (a === b) return 0
  const rows: number[][] = []
  for (let i = 0; i <= a.length; i++) rows.push([i])
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = value
    }
  }
  return rows[a.length]![b.length]!
}
