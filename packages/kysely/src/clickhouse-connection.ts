import type { Client } from '@clickwire/client'
import { CompiledQuery, type DatabaseConnection, type QueryResult, type RootOperationNode } from 'kysely'
import { signalOf } from './abort-signal-plugin.js'
import type { ClickHouseDialectConfig, MutationWaitOptions } from './clickhouse-dialect-config.js'
import { ClickHouseQueryCompiler, compiledProfile } from './clickhouse-query-compiler.js'
import { columnarInsert } from './columnar-insert.js'
import { type MutatedTable, waitForMutations } from './mutation-wait.js'
import type { ServerProfile } from './server-profile.js'

/** What the dialect's parts share: the server profile, known once the driver has asked. */
export interface DialectState {
  profile: ServerProfile
}

/** A query result with what ClickHouse adds to the rows. */
export interface ClickHouseQueryResult<R> extends QueryResult<R> {
  /** The query id the query ran with (as in `system.query_log`). */
  readonly queryId: string
  /** The WITH TOTALS row, when the query asked for one. */
  readonly totals?: R | undefined
  /** Minimums and maximums, when the `extremes` setting is on. */
  readonly extremes?: R[] | undefined
}

/** Options Kysely 0.29 passes with a query. */
interface ExecuteOptions {
  readonly signal?: AbortSignal | undefined
}

const rowKeywords = new Set(['select', 'with', 'show', 'describe', 'desc', 'exists', 'explain', 'check'])

/** Whether raw SQL produces rows: its first word, past comments and parentheses. */
function returnsRows(sql: string): boolean {
  const text = sql.replace(/^(?:\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/|\()*/, '')
  const word = /^[A-Za-z]+/.exec(text)?.[0]?.toLowerCase()
  return word !== undefined && rowKeywords.has(word)
}

function mutatedTable(node: RootOperationNode): MutatedTable | undefined {
  let table: unknown
  if (node.kind === 'UpdateQueryNode') table = (node as { table?: unknown }).table
  else if (node.kind === 'DeleteQueryNode')
    table = (node as { from: { froms: readonly unknown[] } }).from.froms[0]
  else return undefined
  const { schema, identifier } = (
    table as { table: { schema?: { name: string }; identifier: { name: string } } }
  ).table
  return { database: schema?.name, name: identifier.name }
}

/**
 * The rows an INSERT statement wrote: the server's count (from the command's summary), or,
 * where the server reports none (18.16), the number of rows of a VALUES list, which
 * ClickHouse writes all or none of. An INSERT ... SELECT on such a server: unknown.
 */
function insertedRows(node: RootOperationNode, reported: number, profile: ServerProfile): bigint | undefined {
  if (reported > 0 || profile.reportsWrittenRows) return BigInt(reported)
  const values = (node as { values?: { kind: string; values?: readonly unknown[] } }).values
  return values?.kind === 'ValuesNode' && values.values ? BigInt(values.values.length) : undefined
}

function parameterObject(parameters: readonly unknown[]): Record<string, unknown> | undefined {
  if (parameters.length === 0) return undefined
  const params: Record<string, unknown> = {}
  parameters.forEach((value, index) => {
    params[`p${index}`] = value
  })
  return params
}

function newQueryId(): string {
  return globalThis.crypto.randomUUID()
}

/**
 * One Kysely connection over a clickwire client. The client pools its own connections, so
 * this is a light handle: Kysely's connection boundaries (one for a migration run, say) map
 * to nothing on the wire. Compiled queries carry their parameters as `p0`, `p1`, ... for the
 * `{pN:Type}` placeholders the compiler wrote; `CompiledQuery.raw(sql, [a, b])` follows the same
 * convention.
 */
export class ClickHouseConnection implements DatabaseConnection {
  readonly #client: Client
  readonly #state: DialectState
  readonly #config: ClickHouseDialectConfig
  #running = new Set<string>()
  /** Set while migrations hold their lock: every mutation is waited for. */
  waitForMutations = false

  constructor(client: Client, state: DialectState, config: ClickHouseDialectConfig) {
    this.#client = client
    this.#state = state
    this.#config = config
  }

  /** The client this connection runs on. */
  get client(): Client {
    return this.#client
  }

  /** SQL and parameters for the server at hand: compiled again if it was compiled for another. */
  #prepare(compiled: CompiledQuery): { sql: string; params: Record<string, unknown> | undefined } {
    const profile = compiledProfile(compiled)
    if (profile !== undefined && profile !== this.#state.profile) {
      compiled = new ClickHouseQueryCompiler({
        profile: this.#state.profile,
        deleteStatement: this.#config.deleteStatement,
        updateStatement: this.#config.updateStatement,
        cluster: this.#config.cluster,
      }).compileQuery(compiled.query, compiled.queryId)
    }
    return { sql: compiled.sql, params: parameterObject(compiled.parameters) }
  }

  #mutationWait(): MutationWaitOptions | undefined {
    const option = this.#config.waitForMutations
    if (typeof option === 'object') return option
    return option || this.waitForMutations ? {} : undefined
  }

  async executeQuery<R>(
    compiled: CompiledQuery,
    options?: ExecuteOptions,
  ): Promise<ClickHouseQueryResult<R>> {
    const signal = options?.signal ?? signalOf(compiled.queryId)
    const node = compiled.query
    const queryId = newQueryId()
    this.#running.add(queryId)
    try {
      const layout = this.#config.columnarInserts === false ? undefined : columnarInsert(node)
      if (layout) {
        let written = 0
        for (const batch of layout.batches) {
          const result = await this.#client.insert(layout.table, batch.values, {
            columns: batch.columns,
            settings: layout.settings,
            signal,
            queryId: layout.batches.length === 1 ? queryId : undefined,
          })
          written += result.rowsWritten
        }
        return { rows: [], numAffectedRows: BigInt(written), queryId }
      }
      const { sql, params } = this.#prepare(compiled)
      if (node.kind === 'SelectQueryNode' || (node.kind === 'RawNode' && returnsRows(sql))) {
        const result = await this.#client.query<R>(sql, { params, signal, queryId })
        const rows = await result.rows()
        return { rows, queryId, totals: result.totals, extremes: result.extremes }
      }
      const { summary } = await this.#client.command(sql, { params, signal, queryId })
      const table = mutatedTable(node)
      const wait = table && this.#mutationWait()
      if (table && wait) await waitForMutations(this.#client, table, wait, signal)
      // Mutations report no row count; an INSERT does, from the server's own count.
      const written =
        node.kind === 'InsertQueryNode'
          ? insertedRows(node, summary.writtenRows, this.#state.profile)
          : undefined
      return { rows: [], numAffectedRows: written, queryId }
    } finally {
      this.#running.delete(queryId)
    }
  }

  /**
   * Streams rows block by block as the server sends them (Kysely's `.stream()`); `chunkSize`
   * is not needed, as each Native block is already a bounded chunk. Leaving the loop early
   * cancels the query on the server.
   */
  async *streamQuery<R>(
    compiled: CompiledQuery,
    _chunkSize?: number,
    options?: ExecuteOptions,
  ): AsyncIterableIterator<ClickHouseQueryResult<R>> {
    const signal = options?.signal ?? signalOf(compiled.queryId)
    const { sql, params } = this.#prepare(compiled)
    const queryId = newQueryId()
    this.#running.add(queryId)
    try {
      const result = await this.#client.query<R>(sql, { params, signal, queryId })
      let finished = false
      try {
        for await (const block of result.blocks()) yield { rows: block.rows(), queryId }
        finished = true
      } finally {
        if (!finished) await result.cancel()
      }
    } finally {
      this.#running.delete(queryId)
    }
  }

  /**
   * Kysely 0.29's `inflightQueryAbortStrategy: 'cancel query'`: `KILL QUERY` for the query
   * running on this connection, sent over another connection.
   */
  async cancelQuery(
    controlConnectionProvider: (consumer: (connection: DatabaseConnection) => Promise<void>) => Promise<void>,
  ): Promise<void> {
    const ids = [...this.#running]
    if (ids.length === 0) return
    await controlConnectionProvider(async (connection) => {
      // 18.16 takes no array on the right of IN here; `has` works on every version.
      await connection.executeQuery(
        CompiledQuery.raw('KILL QUERY WHERE has({p0:Array(String)}, query_id) ASYNC', [ids]),
      )
    })
  }
}
