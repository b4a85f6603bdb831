import { Readable } from 'node:stream'
import { firstKeyword, ClickHouseError as ServerError, type Settings, UsageError } from '@clickwire/protocol'
import { findFormatClause } from '@clickwire/protocol/format-clause'
import type { Client, RawQueryResult } from '../clickwire-client.js'
import type { ClientOptions } from '../client-options.js'
import type { ResultSet } from '../result-set.js'
import {
  type CompatClientConfig,
  httpOnlySettings,
  type JsonHandling,
  type ResolvedCompatConfig,
  resolveCompatConfig,
  sessionOptions,
} from './compat-config.js'
import { compatCall, compatError } from './compat-error.js'
import { insertConverter } from './compat-insert-values.js'
import { CompatResultSet, type ResultSource } from './compat-result-set.js'
import { type ClickHouseSummary, compatSummary } from './compat-summary.js'
import {
  dateTimeNumbersAsTicks,
  importNestedJson,
  serverTextSettings,
  textSettings,
} from './compat-text-settings.js'
import { type ClickHouseSettings, toParams, toSettings } from './compat-values.js'
import { formatContentType, formatWriter, writtenFormat } from './format-writer.js'

/** Per-call credentials, as @clickhouse/client takes them. */
export interface CallAuth {
  readonly username: string
  readonly password: string
}

/** What every call takes, as in @clickhouse/client. */
export interface BaseQueryParams {
  readonly query_params?: Readonly<Record<string, unknown>> | undefined
  readonly clickhouse_settings?: ClickHouseSettings | undefined
  readonly abort_signal?: AbortSignal | undefined
  readonly query_id?: string | undefined
  /** Runs the call in this session (over native: on the session's one connection). */
  readonly session_id?: string | undefined
  readonly auth?: CallAuth | undefined
  readonly role?: string | readonly string[] | undefined
  readonly http_headers?: Readonly<Record<string, string>> | undefined
  /** Accepted; the client moves long parameters into the body by itself. */
  readonly use_multipart_params?: boolean | undefined
  readonly use_multipart_params_auto?: boolean | undefined
}

export interface QueryParams extends BaseQueryParams {
  readonly query: string
  /** The output format (default JSON). */
  readonly format?: string | undefined
}

export type CommandParams = BaseQueryParams & { readonly query: string }
export type ExecParams = BaseQueryParams & { readonly query: string }

export interface InsertParams<T = unknown> extends Omit<BaseQueryParams, 'query_params'> {
  readonly table: string
  /** Rows (objects or arrays), an object of rows for JSONObjectEachRow, or a Node stream. */
  readonly values: readonly T[] | Readonly<Record<string, T>> | Readable
  /** The input format (default JSONCompactEachRow). */
  readonly format?: string | undefined
  /** The columns the values fill, or `{ except }` the ones they leave out. */
  readonly columns?: readonly string[] | { readonly except: readonly string[] } | undefined
}

export interface CommandResult {
  readonly query_id: string
  readonly summary?: ClickHouseSummary | undefined
  readonly response_headers: Readonly<Record<string, string>>
}

export interface ExecResult extends CommandResult {
  readonly stream: Readable
  readonly http_status_code?: number | undefined
}

export interface InsertResult extends CommandResult {
  /** False when there was nothing to insert (an empty array), and nothing was sent. */
  readonly executed: boolean
}

export type PingResult = { readonly success: true } | { readonly success: false; readonly error: Error }

const baseKeys = [
  'query_params',
  'clickhouse_settings',
  'abort_signal',
  'query_id',
  'session_id',
  'auth',
  'role',
  'http_headers',
  'use_multipart_params',
  'use_multipart_params_auto',
]

function checkParams(params: object, method: string, extra: readonly string[]): void {
  if (typeof params !== 'object' || params === null)
    throw new UsageError(`${method}() takes an object, e.g. { query: 'SELECT 1' }`)
  const allowed = [...extra, ...baseKeys]
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key))
      throw new UsageError(
        `unknown key ${JSON.stringify(key)} in ${method}() parameters: it takes ${allowed.join(', ')}`,
      )
  }
}

/** The statement without trailing blanks and semicolons (the FORMAT clause goes after it). */
function statementOf(query: string): string {
  if (typeof query !== 'string') throw new UsageError('query must be a string')
  return query.trim().replace(/[\s;]+$/, '')
}

/** Statements whose answer is rows (over native they run as queries, the rest as commands). */
const rowStatements = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'EXISTS', 'CHECK'])

/** Formats whose values the drop-in writes over native from rows or objects (JSON values). */
const jsonInputFormats = new Set([
  'JSONEachRow',
  'JSONStringsEachRow',
  'JSONCompactEachRow',
  'JSONCompactStringsEachRow',
  'JSONCompactEachRowWithNames',
  'JSONCompactEachRowWithNamesAndTypes',
  'JSONObjectEachRow',
  'JSON',
  'JSONCompact',
  'JSONLines',
  'NDJSON',
])

/**
 * @clickhouse/client's `ClickHouseClient`, on clickwire: the same calls and results, over
 * HTTP (the server's own bytes) or native (the formats written by the drop-in). Made by
 * {@link createClient}.
 */
export class ClickHouseClient {
  readonly #config: ResolvedCompatConfig
  readonly #make: (options: ClientOptions) => Client
  readonly #clients = new Map<string, Client>()
  /** Each client's server defaults of the writing settings (its user's), asked once. */
  readonly #serverSettings = new WeakMap<Client, Promise<Readonly<Record<string, string>>>>()

  constructor(config: CompatClientConfig, make: (options: ClientOptions) => Client) {
    this.#config = resolveCompatConfig(config)
    this.#make = make
    this.#clients.set('', make(this.#config.options))
  }

  /** `native` or `http`. */
  get transport(): 'native' | 'http' {
    return this.#config.native ? 'native' : 'http'
  }

  get #json(): JsonHandling {
    return this.#config.json
  }

  /** The client of a call: the main one, or one per session id / credentials / roles (kept until close). */
  #clientFor(params: BaseQueryParams): Client {
    const { session_id: session, auth, role } = params
    if (session === undefined && auth === undefined && role === undefined) return this.#clients.get('')!
    const key = JSON.stringify([
      session ?? null,
      auth?.username ?? null,
      auth?.password ?? null,
      role ?? null,
    ])
    let client = this.#clients.get(key)
    if (!client) {
      client = this.#make({
        ...this.#config.options,
        ...(session === undefined ? {} : sessionOptions(session, this.#config.native)),
        ...(auth === undefined ? {} : { username: auth.username, password: auth.password }),
        ...(role === undefined ? {} : { roles: role }),
      })
      this.#clients.set(key, client)
    }
    return client
  }

  #callOptions(params: BaseQueryParams): {
    params: Record<string, unknown> | undefined
    settings: Settings
    signal: AbortSignal | undefined
    queryId: string | undefined
    httpHeaders?: Readonly<Record<string, string>>
  } {
    return {
      params: toParams(params.query_params),
      settings: toSettings(params.clickhouse_settings),
      signal: params.abort_signal,
      queryId: params.query_id,
      ...(params.http_headers ? { httpHeaders: params.http_headers } : {}),
    }
  }

  /**
   * Runs a query and resolves with its result in `format` (default JSON). Over native the
   * result is written by the drop-in: JSON, JSONCompact, the JSON*EachRow formats, CSV and
   * TSV with their WithNames variants; any other format is a UsageError naming HTTP.
   */
  async query(params: QueryParams): Promise<CompatResultSet> {
    checkParams(params, 'query', ['query', 'format'])
    const format = params.format ?? 'JSON'
    const statement = statementOf(params.query)
    const client = this.#clientFor(params)
    const options = this.#callOptions(params)
    if (!this.#config.native) {
      return compatCall(async () => {
        // The statement the server runs and logs is @clickhouse/client's: the FORMAT clause on its own line.
        const raw = await failedAnswer(await client.queryRaw(`${statement} \nFORMAT ${format}`, options))
        return new CompatResultSet(
          { chunks: raw, cancel: () => raw.cancel() },
          format,
          raw.queryId,
          raw.responseHeaders,
          this.#json,
        )
      })
    }
    if (!writtenFormat(format)) throw compatError(formatWriterError(format))
    return compatCall(async () => {
      const server = await this.#textSettingsOfServer(client)
      const result = await client.query(statement, nativeOptions(options))
      return this.#nativeResult(result, format, options.settings, server)
    })
  }

  /** A native result written in `format`. */
  async #nativeResult(
    result: ResultSet,
    format: string,
    callSettings: Settings,
    server: Readonly<Record<string, string>>,
  ): Promise<CompatResultSet> {
    try {
      const settings = textSettings(server, this.#config.options.settings, callSettings)
      const columns = result.meta.map((column) => ({ name: column.name, type: column.type }))
      const writer = formatWriter(format, columns, settings)
      const started = performance.now()
      const chunks = (async function* () {
        yield writer.head()
        for await (const block of result.blocks()) yield writer.rows(block.arrays())
        const totals = result.totals as Record<string, unknown> | undefined
        const profile = result.profileInfo
        const progress = result.progress
        const elapsedNs = progress.elapsedNs > 0 ? progress.elapsedNs : (performance.now() - started) * 1e6
        yield writer.tail({
          totals: totals ? columns.map((column) => totals[column.name]) : undefined,
          rowsBeforeLimit: profile?.appliedLimit ? profile.rowsBeforeLimit : undefined,
          elapsedSeconds: elapsedNs / 1e9,
          rowsRead: progress.readRows,
          bytesRead: progress.readBytes,
        })
      })()
      const source: ResultSource = { chunks, cancel: () => result.cancel() }
      return new CompatResultSet(
        source,
        format,
        result.queryId,
        nativeHeaders(format, result.queryId),
        this.#json,
      )
    } catch (error) {
      await result.cancel()
      throw error
    }
  }

  /**
   * The server's defaults of the writing settings for `client`'s user, asked once and
   * before the query (a session's client has one connection, which the result then holds).
   */
  #textSettingsOfServer(client: Client): Promise<Readonly<Record<string, string>>> {
    let asking = this.#serverSettings.get(client)
    if (!asking) {
      const started = serverTextSettings(client)
      asking = started
      this.#serverSettings.set(client, started)
      started.catch(() => {
        if (this.#serverSettings.get(client) === started) this.#serverSettings.delete(client)
      })
    }
    return asking
  }

  /** Runs a statement and drops its result (DDL, INSERT ... VALUES, SET in a session). */
  async command(params: CommandParams): Promise<CommandResult> {
    checkParams(params, 'command', ['query'])
    const client = this.#clientFor(params)
    const options = this.#callOptions(params)
    let statement = statementOf(params.query)
    let format: string | undefined
    if (this.#config.native) {
      // Native has no output formats: the result is dropped anyway, so the clause goes.
      const clause = findFormatClause(statement)
      if (clause && firstKeyword(statement) !== 'INSERT') {
        format = clause.format
        statement = statementOf(statement.slice(0, clause.start) + statement.slice(clause.end))
      }
    }
    return compatCall(async () => {
      const result = await client.command(statement, this.#config.native ? nativeOptions(options) : options)
      return {
        query_id: result.queryId,
        summary: compatSummary(result.summary),
        response_headers: this.#config.native
          ? nativeHeaders(format ?? 'TabSeparated', result.queryId)
          : result.responseHeaders,
      }
    })
  }

  /**
   * Runs any statement and gives its answer as a byte stream (a Node Readable): over HTTP
   * the server's, in the statement's FORMAT (default TabSeparated); over native, rows
   * written by the drop-in in the statement's FORMAT (default TabSeparated), and an empty
   * stream for statements without rows.
   */
  async exec(params: ExecParams): Promise<ExecResult> {
    checkParams(params, 'exec', ['query'])
    const client = this.#clientFor(params)
    const options = this.#callOptions(params)
    const statement = statementOf(params.query)
    if (!this.#config.native) {
      const keyword = firstKeyword(statement)
      return compatCall(async () => {
        const raw = await failedAnswer(await client.queryRaw(statement, options))
        // A statement without rows (INSERT, DDL) answers with an empty or tiny body: it is
        // read here, so a caller who never reads the stream (as @clickhouse/client allows)
        // does not keep the connection, which a session's calls share one at a time.
        const rows = keyword === undefined || rowStatements.has(keyword)
        const chunks = rows ? compatChunks(raw) : await bufferedChunks(raw)
        return {
          stream: Readable.from(chunks),
          query_id: raw.queryId,
          response_headers: raw.responseHeaders,
          http_status_code: 200,
        }
      })
    }
    const clause = findFormatClause(statement)
    const keyword = firstKeyword(statement)
    if (keyword !== undefined && rowStatements.has(keyword)) {
      const format = clause?.format ?? 'TabSeparated'
      if (!writtenFormat(format)) throw compatError(formatWriterError(format))
      const sql = clause
        ? statementOf(statement.slice(0, clause.start) + statement.slice(clause.end))
        : statement
      return compatCall(async () => {
        const server = await this.#textSettingsOfServer(client)
        const answer = await client.query(sql, nativeOptions(options))
        const result = await this.#nativeResult(answer, format, options.settings, server)
        const stream = Readable.from(encoded(result))
        return {
          stream,
          query_id: result.query_id,
          response_headers: result.response_headers,
          http_status_code: 200,
        }
      })
    }
    const done = await this.command(params)
    return { ...done, stream: Readable.from([]), http_status_code: 200 }
  }

  /**
   * Inserts `values` into `table` in `format` (default JSONCompactEachRow). Over HTTP the
   * values are sent in that format; over native the JSON formats' rows are converted to
   * the table's column types and written as Native blocks.
   */
  async insert<T = unknown>(params: InsertParams<T>): Promise<InsertResult> {
    checkParams(params, 'insert', ['table', 'values', 'format', 'columns'])
    const format = params.format ?? 'JSONCompactEachRow'
    const { values } = params
    if (Array.isArray(values) && values.length === 0)
      return { executed: false, query_id: '', response_headers: {} }
    const client = this.#clientFor(params)
    const { params: _params, ...options } = this.#callOptions(params)
    const columns = await compatCall(() => this.#insertColumns(client, params.table, params.columns))
    if (!this.#config.native) {
      const body = this.#insertBody(values, format)
      return compatCall(async () => {
        const result = await client.insertRaw(params.table, body, { ...options, format, columns })
        return {
          executed: true,
          query_id: result.queryId,
          summary: compatSummary(result.summary),
          response_headers: result.responseHeaders,
        }
      })
    }
    if (!jsonInputFormats.has(format))
      throw new UsageError(
        `insert() in format ${format} needs the HTTP interface: over the native protocol the drop-in writes rows of the JSON formats (${[...jsonInputFormats].join(', ')}) as Native blocks; use an http:// URL to send ${format} bytes`,
      )
    return compatCall(async () => {
      const types = await this.#columnTypes(client, params.table)
      const insertable = types.filter((column) => column.insertable).map((column) => column.name)
      const server = await this.#textSettingsOfServer(client)
      const reading = {
        dateTimeNumbersAsTicks: dateTimeNumbersAsTicks(
          server,
          this.#config.options.settings,
          options.settings,
        ),
      }
      const converters = new Map(types.map((column) => [column.name, insertConverter(column.type, reading)]))
      // Rows of arrays fill the columns in order; objects name theirs (a column they leave
      // out gets its default, as when the server reads JSONEachRow).
      const positional = /^JSONCompact/.test(format)
      const nested = importNestedJson(server, this.#config.options.settings, options.settings)
      const rows = nativeRows(values, format, columns ?? insertable, converters, this.#json, nested)
      const result = await client.insert(params.table, rows, {
        ...nativeOptions(options),
        columns: positional ? (columns ?? insertable) : columns,
      })
      return {
        executed: true,
        query_id: result.queryId,
        summary: compatSummary(result.summary),
        response_headers: nativeHeaders('TabSeparated', result.queryId),
      }
    })
  }

  /** The columns an insert names: as given, or every insertable one but `except`. */
  async #insertColumns(
    client: Client,
    table: string,
    columns: InsertParams['columns'],
  ): Promise<readonly string[] | undefined> {
    // An empty list names no columns, as in @clickhouse/client: the statement has no column list.
    if (Array.isArray(columns)) return columns.length === 0 ? undefined : columns
    if (columns === undefined) return undefined
    const except = (columns as { except: readonly string[] }).except
    if (!Array.isArray(except))
      throw new UsageError('insert() columns takes an array of names or { except: [...] }')
    const types = await this.#columnTypes(client, table)
    return types
      .filter((column) => column.insertable && !except.includes(column.name))
      .map((column) => column.name)
  }

  async #columnTypes(
    client: Client,
    table: string,
  ): Promise<{ name: string; type: string; insertable: boolean }[]> {
    const described = await client.query<{ name: string; type: string; default_type: string }>(
      `DESCRIBE TABLE ${table}`,
    )
    return (await described.rows()).map((row) => ({
      name: row.name,
      type: row.type,
      insertable: row.default_type !== 'MATERIALIZED' && row.default_type !== 'ALIAS',
    }))
  }

  /** The body of an HTTP insert: JSON rows one per line (an object of rows as one document), or a stream's chunks. */
  #insertBody(values: InsertParams['values'], format: string): string | AsyncIterable<Uint8Array> {
    const stringify = this.#json.stringify
    if (values instanceof Readable) {
      const objects = values.readableObjectMode
      const encoder = new TextEncoder()
      return (async function* () {
        for await (const chunk of values) {
          if (typeof chunk === 'string') yield encoder.encode(chunk)
          else if (chunk instanceof Uint8Array) yield chunk
          else if (objects) yield encoder.encode(`${stringify(chunk)}\n`)
          else yield encoder.encode(String(chunk))
        }
      })()
    }
    if (format === 'JSONObjectEachRow' || format === 'JSON' || format === 'JSONCompact') {
      if (format === 'JSONObjectEachRow') return stringify(values)
      return stringify(Array.isArray(values) ? { data: values } : values)
    }
    if (!Array.isArray(values))
      throw new UsageError(
        `insert() values: an array of rows or a Node stream for ${format}, got ${typeof values}`,
      )
    if (!jsonInputFormats.has(format))
      throw new UsageError(`insert() in format ${format} takes a Node stream of its bytes, not an array`)
    return values.map((row) => `${stringify(row)}\n`).join('')
  }

  /** `{ success: true }` when the server answers, else `{ success: false, error }`; never throws. */
  async ping(): Promise<PingResult> {
    try {
      await this.#clients.get('')!.ping()
      return { success: true }
    } catch (error) {
      const compat = compatError(error)
      return { success: false, error: compat instanceof Error ? compat : new Error(String(compat)) }
    }
  }

  /** Closes every connection (the sessions' too). */
  async close(): Promise<void> {
    const clients = [...this.#clients.values()]
    await Promise.all(clients.map((client) => client.close()))
  }
}

/** A call's options for native: without the HTTP-only parameters. */
function nativeOptions<T extends { settings: Settings }>(options: T): T {
  if (!httpOnlySettings.some((name) => name in options.settings)) return options
  const settings = Object.fromEntries(
    Object.entries(options.settings).filter(([name]) => !httpOnlySettings.includes(name)),
  )
  return { ...options, settings }
}

/**
 * An answer of status 200 whose headers carry `X-ClickHouse-Exception-Code` (the server
 * failed after it sent progress headers): its body is the exception, thrown as the server's error.
 */
async function failedAnswer(raw: RawQueryResult): Promise<RawQueryResult> {
  const code = raw.responseHeaders['x-clickhouse-exception-code']
  if (code === undefined) return raw
  const text = await raw.text()
  throw (
    ServerError.fromText(text.trim(), raw.queryId) ??
    new ServerError({ code: Number(code), type: 'DB::Exception', message: text.trim(), queryId: raw.queryId })
  )
}

function formatWriterError(format: string): UsageError {
  try {
    formatWriter(format, [], textSettings({}))
  } catch (error) {
    if (error instanceof UsageError) return error
  }
  return new UsageError(`format ${format} is not available over the native protocol`)
}

/** Response headers over native: the ones an HTTP server gives the format (the drop-in wrote its bytes). */
function nativeHeaders(format: string, queryId: string): Readonly<Record<string, string>> {
  return {
    'content-type': formatContentType(format),
    'x-clickhouse-format': writtenFormat(format) ?? format,
    'x-clickhouse-query-id': queryId,
  }
}

/** Every chunk of an answer, read to its end. */
async function bufferedChunks(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const all: Uint8Array[] = []
  for await (const chunk of compatChunks(chunks)) all.push(chunk)
  return all
}

async function* compatChunks(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks
  } catch (error) {
    throw compatError(error)
  }
}

async function* encoded(result: CompatResultSet): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder()
  const text = await result.text()
  if (text) yield encoder.encode(text)
}

/** The values of a native insert as row objects of converted values. */
function nativeRows(
  values: InsertParams['values'],
  format: string,
  names: readonly string[],
  converters: ReadonlyMap<string, (value: unknown) => unknown>,
  json: JsonHandling,
  nestedJson: boolean,
): AsyncIterable<Record<string, unknown>> | Record<string, unknown>[] {
  const convert = (object: Record<string, unknown>, name: string, value: unknown) => {
    const converter = converters.get(name)
    // With input_format_import_nested_json the server reads { n: { id: [...] } } into the
    // flattened columns n.id, ...: an object under a name that is no column, with keys that
    // make column names, is spread over them.
    if (
      !converter &&
      nestedJson &&
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      !(value instanceof Date)
    ) {
      const entries = Object.entries(value)
      if (entries.length > 0) {
        for (const [key, each] of entries) convert(object, `${name}.${key}`, each)
        return
      }
    }
    object[name] = converter ? converter(value) : value
  }
  const objectRow = (row: unknown): Record<string, unknown> => {
    if (Array.isArray(row)) {
      const object: Record<string, unknown> = {}
      names.forEach((name, index) => {
        object[name] = (converters.get(name) ?? ((v: unknown) => v))(row[index])
      })
      return object
    }
    if (typeof row !== 'object' || row === null)
      throw new UsageError(`insert() row: expected an object or an array, got ${typeof row}`)
    const object: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(row)) convert(object, name, value)
    return object
  }
  // The WithNames formats' first rows name (and type) the columns.
  const headerRows = format.endsWith('WithNamesAndTypes') ? 2 : format.endsWith('WithNames') ? 1 : 0
  if (values instanceof Readable) {
    return (async function* () {
      let seen = 0
      let pending = ''
      // One decoder for the stream: a character cut between two chunks stays whole.
      const decoder = new TextDecoder()
      for await (const chunk of values) {
        const rows: unknown[] = []
        if (typeof chunk === 'string' || chunk instanceof Uint8Array) {
          pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
          const lines = pending.split('\n')
          pending = lines.pop() ?? ''
          for (const line of lines) if (line.trim()) rows.push(json.parse(line))
        } else rows.push(chunk)
        for (const row of rows) if (seen++ >= headerRows) yield objectRow(row)
      }
      pending += decoder.decode()
      if (pending.trim() && seen++ >= headerRows) yield objectRow(json.parse(pending))
    })()
  }
  if (format === 'JSONObjectEachRow' && !Array.isArray(values)) return Object.values(values).map(objectRow)
  // JSON and JSONCompact take one document whose `data` holds the rows.
  if ((format === 'JSON' || format === 'JSONCompact') && !Array.isArray(values)) {
    const data = (values as { data?: unknown }).data
    if (!Array.isArray(data))
      throw new UsageError(`insert() in format ${format} takes { data: [rows] } or an array of rows`)
    return data.map(objectRow)
  }
  if (!Array.isArray(values))
    throw new UsageError(`insert() values: an array of rows or a Node stream for ${format}`)
  return values.slice(headerRows).map(objectRow)
}
