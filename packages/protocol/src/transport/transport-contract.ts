import type { NativeBlock } from '../blocks/native-block.js'
import type { ColumnInput } from '../columns/column-codec.js'
import type { ColumnParts } from '../columns/column-parts.js'
import type { TraceContext } from '../packets/client-info.js'
import type { TypeNode } from '../types/type-node.js'
import type { KnownSettings } from './known-settings.js'

/**
 * What every transport (native TCP, HTTP) offers, so `@clickwire/client` can put one API
 * over both. Types only: transports implement it structurally.
 */

/** A ClickHouse setting value; names pass through unchanged (`max_threads`, `send_logs_level`). */
export type SettingValue = string | number | boolean | bigint

/**
 * ClickHouse settings by name: the common ones typed and documented (editors offer them,
 * see {@link KnownSettings}), any other name as a {@link SettingValue}.
 */
export type Settings = KnownSettings & Readonly<Record<string, SettingValue | undefined>>

/** Counters a query reports while it runs (native Progress packets, HTTP progress headers). */
export interface Progress {
  readonly readRows: number
  readonly readBytes: number
  readonly totalRowsToRead: number
  readonly writtenRows: number
  readonly writtenBytes: number
  /** Server-side elapsed time, when the server reports it. */
  readonly elapsedNs: number
}

export const emptyProgress: Progress = Object.freeze({
  readRows: 0,
  readBytes: 0,
  totalRowsToRead: 0,
  writtenRows: 0,
  writtenBytes: 0,
  elapsedNs: 0,
})

/** Native ProfileInfo: what the server knows about the result when it is complete. */
export interface ProfileInfo {
  readonly rows: number
  readonly blocks: number
  readonly bytes: number
  readonly appliedLimit: boolean
  readonly rowsBeforeLimit: number
  readonly calculatedRowsBeforeLimit: boolean
}

/** Name and type of one result (or insert) column. */
export interface ColumnMeta {
  readonly name: string
  /** The type as the server prints it. */
  readonly type: string
  readonly typeNode: TypeNode
  /** For insert headers: how the column gets a value when none is given. */
  readonly defaultKind?: 'DEFAULT' | 'MATERIALIZED' | 'ALIAS' | 'EPHEMERAL' | '' | undefined
  readonly defaultExpression?: string | undefined
}

/** One server log line (`send_logs_level`). */
export interface ServerLogEntry {
  readonly time: string
  readonly hostName: string
  readonly queryId: string
  readonly threadId: number
  readonly priority: number
  readonly source: string
  readonly text: string
}

/** A table sent along with a query (`external tables`). */
export interface ExternalTable {
  readonly name: string
  readonly columns: readonly { readonly name: string; readonly type: string }[]
  /** Rows as objects keyed by column name, or one value array per column. */
  readonly data: readonly Record<string, unknown>[] | Readonly<Record<string, ColumnInput>>
}

/** Callbacks for what a query reports besides its rows. */
export interface QueryEvents {
  onProgress?(progress: Progress, total: Progress): void
  onProfileInfo?(info: ProfileInfo): void
  onTotals?(block: NativeBlock): void
  onExtremes?(block: NativeBlock): void
  onLog?(entries: readonly ServerLogEntry[]): void
  /** Native ProfileEvents blocks (counter name -> value), as the server sends them. */
  onProfileEvents?(block: NativeBlock): void
}

/** Options every query-like call takes. */
export interface RequestOptions {
  /** `{name:Type}` placeholder values. */
  readonly params?: Readonly<Record<string, unknown>> | undefined
  readonly settings?: Settings | undefined
  readonly queryId?: string | undefined
  readonly signal?: AbortSignal | undefined
  /** Ends the query with a TimeoutError after this long (default: the client's). */
  readonly timeoutMs?: number | undefined
  /**
   * When the call began (`performance.now()`), if before the transport got it: `timeoutMs`
   * counts from there (the client's own steps before, such as the wait for the server's
   * version of a sql`` call, use part of it).
   */
  readonly startedAt?: number | undefined
  /**
   * The W3C trace context the server's spans continue: native puts it in the Query packet's
   * ClientInfo (revision >= 54442; older servers get none), HTTP sends `traceparent` /
   * `tracestate` headers.
   */
  readonly traceContext?: TraceContext | undefined
  /** HTTP: extra request headers for this call (over the transport's own). Native has none. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** HTTP: called with the response headers (names lower case) once they arrived. Native never calls it. */
  onResponseHeaders?(headers: Readonly<Record<string, string>>): void
  /**
   * Called when the request is sent again (the retry policy: a pooled connection the server
   * had closed, nothing of the answer received), with the attempt that failed and why.
   */
  onRetry?(attempt: number, error: unknown): void
}

export interface QueryOptions extends RequestOptions, QueryEvents {
  readonly externalTables?: readonly ExternalTable[] | undefined
}

/**
 * The blocks of one result, streamed: the transport reads ahead a little and stops
 * reading from the network while the consumer is slow, so memory stays bounded.
 * Breaking out of the iteration cancels the query.
 */
export interface BlockStream extends AsyncIterable<NativeBlock> {
  readonly queryId: string
  /** Result columns; known once the first block (the header) arrived. */
  columns(): Promise<readonly ColumnMeta[]>
  /** Progress so far (final once the stream ended). */
  readonly progress: Progress
  readonly profileInfo: ProfileInfo | undefined
  readonly totals: NativeBlock | undefined
  readonly extremes: NativeBlock | undefined
  /** Stops the query on the server and ends the stream; resolves when the connection is reusable. */
  cancel(): Promise<void>
  /**
   * The consumer uses each block only until it asks for the next one, so the transport may
   * reuse a block's memory from then on (see BufferPool). Call before iterating, or while
   * iterating: blocks handed out before the call keep their memory. A transport without
   * reusable memory leaves the blocks as they are.
   */
  recycleBlocks?(): void
}

/** One batch of rows to insert: a value list per header column. */
export interface InsertBatch {
  readonly rows: number
  /** Values for each column of the header, in header order. */
  readonly columns: readonly (ColumnInput | ColumnParts)[]
}

export interface InsertOptions extends RequestOptions {
  /** Columns to insert into; default every column that can be inserted. */
  readonly columns?: readonly string[] | undefined
}

export interface InsertResult {
  readonly queryId: string
  /** Rows the server confirmed written. */
  readonly rowsWritten: number
  readonly progress: Progress
}

/**
 * What an insert of bytes in an input format resolves with. The client never parses those
 * bytes, so the written rows are known only when the server counts them (26.x over HTTP, in
 * `X-ClickHouse-Summary`); a server that sends no count (18.16) gives `undefined`, not 0.
 */
export interface RawInsertResult extends Omit<InsertResult, 'rowsWritten'> {
  /** Rows the server confirmed written; `undefined` when the server does not say. */
  readonly rowsWritten: number | undefined
}

/**
 * Produces the batches of an insert once the transport knows the table's header (names,
 * types and defaults of the columns being inserted).
 */
export type InsertProducer = (
  header: readonly ColumnMeta[],
) => AsyncIterable<InsertBatch> | Iterable<InsertBatch>

/** What a server says about itself. */
export interface ServerInfo {
  readonly name: string
  /** `major.minor.patch`. */
  readonly version: string
  /**
   * The native protocol revision clickwire speaks with the server (the smaller of its own and
   * the server's, as the handshake negotiates it), the same over HTTP; 0 when unknown.
   */
  readonly revision: number
  readonly timezone: string
  readonly displayName: string
}

/** Options of a query whose result comes back as bytes in a server format. */
export interface RawQueryOptions extends QueryOptions {
  /** The output format when the statement has no FORMAT clause (default TabSeparated). */
  readonly format?: string | undefined
}

/**
 * A result in any format the server writes (CSV, TSVWithNames, JSONEachRow, Parquet, Arrow,
 * ...), as bytes. Read it once: iterate the chunks, or take `bytes()` / `text()`. An
 * exception the server raises mid-stream ends the iteration with its ClickHouseError.
 */
export interface RawStream extends AsyncIterable<Uint8Array> {
  readonly queryId: string
  /** The format the server announced, else the one asked for. */
  readonly format: string | undefined
  readonly progress: Progress
  bytes(): Promise<Uint8Array>
  text(): Promise<string>
  /** Stops reading; the query is stopped on the server. */
  cancel(): Promise<void>
}

/** Options of an insert whose rows come as bytes in an input format. */
export interface RawInsertOptions extends InsertOptions {
  /** The input format of the bytes: CSV, CSVWithNames, TabSeparated, JSONEachRow, Parquet, ... */
  readonly format: string
}

/** Bytes to insert: a whole buffer or text, or chunks pulled as the upload goes (a file stream). */
export type RawBody = string | Uint8Array | AsyncIterable<Uint8Array> | Iterable<Uint8Array>

/** The transport interface the client builds on. */
export interface Transport {
  readonly kind: 'native' | 'http'
  query(sql: string, options?: QueryOptions): Promise<BlockStream>
  insert(table: string, producer: InsertProducer, options?: InsertOptions): Promise<InsertResult>
  /** Runs a statement that returns no rows (DDL, SET, ALTER ...). */
  command(
    sql: string,
    options?: RequestOptions,
  ): Promise<{ readonly queryId: string; readonly progress: Progress }>
  ping(options?: {
    readonly signal?: AbortSignal | undefined
    readonly timeoutMs?: number | undefined
  }): Promise<void>
  serverInfo(): Promise<ServerInfo>
  close(): Promise<void>
  /**
   * A result in a server format, as bytes. Only where the protocol carries such bytes: the
   * HTTP interface does, the native protocol (results only as Native blocks) does not.
   */
  queryRaw?(sql: string, options: RawQueryOptions): Promise<RawStream>
  /** An insert of bytes in an input format (HTTP only, as {@link queryRaw}). */
  insertRaw?(table: string, body: RawBody, options: RawInsertOptions): Promise<RawInsertResult>
}
