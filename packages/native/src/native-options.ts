import {
  type CompressionOption,
  clientRevision,
  defaultAcquireTimeoutMs,
  defaultMaxBlockBytes,
  type HostStrategy,
  parseConnectionUrl,
  resolveCompression,
  resolveHostStrategy,
  resolveProtocolRevision,
  type Settings,
  type TlsOptions,
  UsageError,
  type ValueMapping,
} from '@clickwire/protocol'

export type { HostStrategy }

/** One server address. */
export interface HostAddress {
  readonly host: string
  readonly port: number
}

/** @deprecated Use protocol's {@link TlsOptions}, the one TLS shape of every transport. */
export type NativeTlsOptions = TlsOptions

/** The block compression of a native connection, both ways. */
export type CompressionMethod = 'lz4' | 'zstd' | 'none'

/** Options of the native TCP transport (our names camelCase; ClickHouse settings unchanged). */
export interface NativeOptions {
  /** One or more hosts; with several, failover and load balancing apply. */
  readonly hosts: readonly HostAddress[]
  readonly username: string
  readonly password: string
  readonly database: string
  readonly quotaKey: string
  /** Reported to the server as the client name (system.processes, query_log). */
  readonly clientName: string
  /** `clickhouses://` or explicit: TLS options; undefined for plain TCP. */
  readonly tls: TlsOptions | undefined
  /** Block compression (default LZ4); see {@link nativeCompression} for the option's forms. */
  readonly compression: CompressionMethod
  /** ZSTD level when compression is `zstd`. */
  readonly zstdLevel: number
  /** Settings sent with every query. */
  readonly settings: Settings
  /** Limit for opening a connection: TCP connect, TLS and the Hello exchange together. */
  readonly connectTimeoutMs: number
  /** Default limit for a whole request, including the wait for a free connection (0: none). */
  readonly requestTimeoutMs: number
  /**
   * Longest wait for the next bytes from the server while a request waits for them (0:
   * none). A healthy server sends Progress every `interactive_delay` (100 ms) while a query
   * runs, so only a stalled connection or a silent statement (a long DDL) gets this quiet.
   */
  readonly receiveTimeoutMs: number
  /** Idle connections are closed after this long in the pool. */
  readonly idleTimeoutMs: number
  /** Connections idle longer than this are pinged before reuse. */
  readonly pingAfterIdleMs: number
  /** Most connections open at once (per client, across hosts). */
  readonly maxConnections: number
  /**
   * Longest wait for a free connection when all `maxConnections` are in use (0: none). An
   * unread result holds its connection, so without a limit a pool full of them would hang.
   */
  readonly acquireTimeoutMs: number
  /** With several hosts, which to try first (ClickHouse's `load_balancing` names are aliases: `round_robin`, ...). */
  readonly hostStrategy: HostStrategy
  /** How long a host that failed is skipped. */
  readonly hostCooldownMs: number
  /** Bytes received ahead of the consumer before the socket is paused (at least one block is always read whole). */
  readonly readAheadBytes: number
  /** Size of the buffers received bytes land in (and blocks are decoded from); grown for larger packets. */
  readonly readBufferBytes: number
  /** Rows per block for inserts: larger batches from the producer are cut to this size. */
  readonly insertBlockRows: number
  /**
   * The most bytes one block of an answer may take decoded (its Native form uncompressed;
   * default 256 MiB): a larger one, or a compressed frame that would make it larger, is a
   * ProtocolError before the memory is taken.
   */
  readonly maxBlockBytes: number
  /**
   * The highest native protocol revision to speak (default clickwire's own, `clientRevision`);
   * the server then uses the smaller of it and its own. Lower it to get older layouts (54488:
   * String columns before the size-stream layout of 54492).
   */
  readonly protocolRevision: number
  readonly mapping: ValueMapping
  /**
   * One connection for the transport's whole life, which keeps what `SET`, `USE` and
   * `CREATE TEMPORARY TABLE` leave on it (the client's sessions): calls wait for it in turn,
   * it is never closed for being idle, and once it is lost (broken, timed out, closed by the
   * server) later calls fail with a ConnectionError instead of running on a fresh connection
   * that has none of that state. `maxConnections` is 1 then.
   */
  readonly dedicatedConnection: boolean
}

export const nativeDefaults = {
  username: 'default',
  password: '',
  database: 'default',
  quotaKey: '',
  clientName: 'clickwire',
  compression: 'lz4',
  zstdLevel: 1,
  connectTimeoutMs: 10_000,
  requestTimeoutMs: 0,
  receiveTimeoutMs: 300_000,
  idleTimeoutMs: 60_000,
  pingAfterIdleMs: 5_000,
  maxConnections: 10,
  acquireTimeoutMs: defaultAcquireTimeoutMs,
  hostStrategy: 'in-order',
  hostCooldownMs: 30_000,
  readAheadBytes: 1 << 20,
  readBufferBytes: 4 << 20,
  insertBlockRows: 65_536,
  maxBlockBytes: defaultMaxBlockBytes,
  protocolRevision: clientRevision,
  dedicatedConnection: false,
} as const satisfies Partial<NativeOptions>

const defaultPorts = { 'clickhouse:': 9000, 'clickhouses:': 9440 } as const

/** What a `clickhouse://` URL says. */
export interface ParsedNativeUrl {
  readonly hosts: HostAddress[]
  readonly secure: boolean
  readonly username?: string | undefined
  readonly password?: string | undefined
  readonly database?: string | undefined
  /** URL query parameters: our options (camelCase) and ClickHouse settings. */
  readonly parameters: Record<string, string>
}

/**
 * Parses `clickhouse://user:password@host1:9000,host2:9000/database?compression=zstd&max_threads=2`
 * (`clickhouses://` for TLS). Several comma-separated hosts give failover.
 */
export function parseNativeUrl(url: string): ParsedNativeUrl {
  const parsed = parseConnectionUrl(url, defaultPorts, 'native URL')
  return {
    hosts: parsed.endpoints.map(({ host, port }) => ({ host, port })),
    secure: parsed.scheme === 'clickhouses:',
    username: parsed.username,
    password: parsed.password,
    database: parsed.path || undefined,
    parameters: Object.fromEntries(parsed.parameters),
  }
}

/** URL parameters that are our options, and how to read each; every other parameter is a ClickHouse setting. */
const urlOptions = {
  compression: (value: string) => value,
  zstdLevel: Number,
  connectTimeoutMs: Number,
  requestTimeoutMs: Number,
  /** @deprecated alias of requestTimeoutMs. */
  queryTimeoutMs: Number,
  receiveTimeoutMs: Number,
  idleTimeoutMs: Number,
  pingAfterIdleMs: Number,
  maxConnections: Number,
  acquireTimeoutMs: Number,
  hostStrategy: (value: string) => value,
  hostCooldownMs: Number,
  readAheadBytes: Number,
  readBufferBytes: Number,
  insertBlockRows: Number,
  maxBlockBytes: Number,
  protocolRevision: Number,
  clientName: (value: string) => value,
  quotaKey: (value: string) => value,
} as const satisfies Record<string, (value: string) => unknown>

/**
 * The transport options a `clickhouse://` URL gives: hosts, credentials, database, TLS for
 * `clickhouses://` (certificate verification on), our options from camelCase parameters,
 * and every other parameter as a ClickHouse setting.
 *
 * @example
 * ```ts
 * nativeOptionsFromUrl('clickhouse://u:p@h1,h2:9001/db?hostStrategy=round-robin&max_threads=2')
 * // { hosts: [{ host: 'h1', port: 9000 }, { host: 'h2', port: 9001 }], username: 'u', password: 'p',
 * //   database: 'db', tls: undefined, hostStrategy: 'round-robin', settings: { max_threads: '2' } }
 * ```
 */
export function nativeOptionsFromUrl(
  url: string,
): { hosts: HostAddress[] } & Partial<Omit<NativeOptions, 'hosts'>> {
  const parsed = parseNativeUrl(url)
  const options: Record<string, unknown> = {
    hosts: parsed.hosts,
    username: parsed.username,
    password: parsed.password,
    database: parsed.database,
    tls: parsed.secure ? {} : undefined,
  }
  const settings: Record<string, string> = {}
  for (const [name, value] of Object.entries(parsed.parameters)) {
    const read = (urlOptions as Record<string, (value: string) => unknown>)[name]
    if (!read) settings[name] = value
    else {
      const option = read(value)
      if (typeof option === 'number' && !Number.isFinite(option))
        throw new UsageError(`URL parameter ${name} must be a number, got "${value}"`)
      options[name] = option
    }
  }
  if (Object.keys(settings).length > 0) options.settings = settings
  for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key]
  return options as { hosts: HostAddress[] } & Partial<Omit<NativeOptions, 'hosts'>>
}

/**
 * The native block compression a `compression` option gives (default `lz4`): a method name,
 * or `{ request }` with one frame method (the server answers with the same one). The boolean
 * form of @clickhouse/client (`true`, `{ request: true }`, `{ response: true }`) turns on
 * `lz4`, both ways since native has one method for both; `false` (or both sides `false`)
 * turns it off. `gzip` and `response` methods are HTTP's and refused here, so a typo or an
 * HTTP config does not quietly send something else.
 */
export function nativeCompression(option: CompressionOption | undefined): CompressionMethod {
  if (typeof option === 'object' && option !== null && !Array.isArray(option)) {
    const { request, response } = option
    if (typeof response === 'string')
      throw new UsageError(
        `response compression ${response} is HTTP only: native answers use the request method (lz4, zstd or none)`,
      )
    if (request === undefined || typeof request === 'boolean')
      return request === true || response === true ? 'lz4' : 'none'
  }
  const resolved = resolveCompression(option, 'lz4', { request: 'lz4', response: undefined })
  if (resolved.request.length > 1)
    throw new UsageError(`native compression takes one method, got ${resolved.request.join(', ')}`)
  const method = resolved.request[0] ?? 'none'
  if (method !== 'lz4' && method !== 'zstd' && method !== 'none')
    throw new UsageError(
      `native compression must be lz4, zstd or none, got ${String(method)}${method === 'gzip' ? " (gzip is HTTP's Content-Encoding)" : ''}`,
    )
  return method
}

/** Checks the options a caller may get wrong; throws UsageError naming the option. */
export function checkNativeOptions(options: NativeOptions): void {
  if (!['lz4', 'zstd', 'none'].includes(options.compression))
    throw new UsageError(`compression must be lz4, zstd or none, got ${String(options.compression)}`)
  resolveHostStrategy(options.hostStrategy)
  for (const name of [
    'maxConnections',
    'insertBlockRows',
    'readAheadBytes',
    'readBufferBytes',
    'maxBlockBytes',
  ] as const) {
    if (!Number.isInteger(options[name]) || options[name] < 1)
      throw new UsageError(`${name} must be a positive integer, got ${String(options[name])}`)
  }
  for (const name of [
    'connectTimeoutMs',
    'requestTimeoutMs',
    'receiveTimeoutMs',
    'idleTimeoutMs',
    'pingAfterIdleMs',
    'acquireTimeoutMs',
    'hostCooldownMs',
  ] as const) {
    if (!(options[name] >= 0)) throw new UsageError(`${name} must be 0 or more, got ${String(options[name])}`)
  }
  if (!(options.connectTimeoutMs > 0)) throw new UsageError('connectTimeoutMs must be more than 0')
  resolveProtocolRevision(options.protocolRevision)
}
