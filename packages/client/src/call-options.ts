import { UsageError } from '@clickwire/protocol'
import { clickhouseClientHint, nearestName } from './option-names.js'

/** The calls whose options are checked. */
export type CallName =
  | 'query'
  | 'queryArrow'
  | 'queryRaw'
  | 'insert'
  | 'insertRaw'
  | 'command'
  | 'ping'
  | 'session'

/** What a value of an option must be. */
type Kind = 'object' | 'string' | 'number' | 'function' | 'signal' | 'array' | 'boolean' | 'sharding'

const requestKinds = {
  settings: 'object',
  queryId: 'string',
  signal: 'signal',
  timeoutMs: 'number',
  httpHeaders: 'object',
  // Set by the client itself when one call runs another (queryArrow's query).
  startedAt: 'number',
} as const satisfies Record<string, Kind>

const queryKinds = {
  ...requestKinds,
  params: 'object',
  externalTables: 'array',
  onProgress: 'function',
  onProfileInfo: 'function',
  onTotals: 'function',
  onExtremes: 'function',
  onLog: 'function',
  onProfileEvents: 'function',
  // HTTP's: whether a read may be sent again after a stale kept-alive socket.
  retryable: 'boolean',
} as const satisfies Record<string, Kind>

/** Every option each call takes, with the kind of its value. */
const callKinds: Record<CallName, Readonly<Record<string, Kind>>> = {
  query: queryKinds,
  queryArrow: queryKinds,
  queryRaw: { ...queryKinds, format: 'string' },
  command: { ...requestKinds, params: 'object' },
  insert: {
    ...requestKinds,
    columns: 'array',
    blockRows: 'number',
    sharding: 'sharding',
    shardUrl: 'function',
  },
  insertRaw: { ...requestKinds, format: 'string', columns: 'array' },
  ping: { signal: 'signal', timeoutMs: 'number' },
  session: { id: 'string', timeoutSeconds: 'number' },
}

const kindNames: Record<Kind, string> = {
  object: 'an object',
  string: 'a string',
  number: 'a finite number of 0 or more',
  function: 'a function',
  signal: 'an AbortSignal',
  array: 'an array',
  boolean: 'true or false',
  sharding: "'distributed' or 'direct'",
}

/** Whether `value` is of `kind` (undefined is always allowed: the option is not given). */
function isOfKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0
    case 'function':
      return typeof value === 'function'
    case 'array':
      return Array.isArray(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'sharding':
      return value === 'distributed' || value === 'direct'
    case 'signal':
      // An AbortSignal of another realm (a test environment's, a polyfill) passes too.
      return (
        (typeof AbortSignal !== 'undefined' && value instanceof AbortSignal) ||
        (typeof value === 'object' &&
          value !== null &&
          typeof (value as AbortSignal).aborted === 'boolean' &&
          typeof (value as AbortSignal).addEventListener === 'function')
      )
  }
}

/**
 * Checks the options of one call: every key is one the call takes, with a value of the
 * right kind; anything else is a UsageError naming the key (and, for a @clickhouse/client
 * name or a near miss, ours). TypeScript catches extra keys only in object literals, so
 * without this a typo (`timeoutMS`) or another client's name (`clickhouse_settings`) would
 * be dropped in silence. One pass over the given keys: nothing is allocated when they are
 * right.
 */
export function checkCallOptions(call: CallName, options: unknown): void {
  if (options === undefined) return
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new UsageError(`${call}() takes its options as an object, got ${describe(options)}`)
  const kinds = callKinds[call]
  for (const key in options) {
    const kind = kinds[key]
    const value = (options as Record<string, unknown>)[key]
    if (kind === undefined) {
      if (!Object.hasOwn(options, key)) continue
      throw new UsageError(unknownOptionMessage(call, key, kinds))
    }
    if (value !== undefined && !isOfKind(value, kind))
      throw new UsageError(`${call}() option ${key} must be ${kindNames[kind]}, got ${describe(value)}`)
  }
}

/** The message for a key the call does not take. */
function unknownOptionMessage(call: CallName, key: string, kinds: Readonly<Record<string, Kind>>): string {
  const prefix = `unknown ${call}() option ${JSON.stringify(key)}`
  const foreign = clickhouseClientHint(key, 'call')
  if (foreign !== undefined) return `${prefix}: ${foreign}`
  const near = nearestName(
    key,
    Object.keys(kinds).filter((name) => name !== 'startedAt'),
  )
  if (near !== undefined) return `${prefix}: did you mean \`${near}\`?`
  const taken = Object.keys(kinds)
    .filter((name) => name !== 'startedAt' && name !== 'retryable')
    .join(', ')
  return `${prefix}: ${call}() takes ${taken}${call === 'ping' || call === 'session' ? '' : ' (ClickHouse settings go in `settings`)'}`
}

/** A value as a message shows it: its type, numbers and booleans themselves (a string could be a secret). */
function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return 'a string'
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value)
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`
  return typeof value
}
