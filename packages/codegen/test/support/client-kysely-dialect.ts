import { type Client, SqlFragment } from '@clickwire/client'
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  type QueryResult,
} from 'kysely'

/**
 * A stand-in Kysely dialect for the tests, until @clickwire/kysely exists: MySQL's
 * compiler (backtick identifiers and `?` placeholders, both fine for ClickHouse), each `?`
 * sent as a typed `{pN:Type}` parameter through the client's `sql` fragments, SELECTs
 * through `query` and everything else through `command`. Not a product: no
 * transactions, no streaming, no ClickHouse-specific syntax.
 */
export function clientDialect(client: Client): Dialect {
  return {
    createAdapter: () => new MysqlAdapter(),
    createQueryCompiler: () => new MysqlQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => new MysqlIntrospector(db),
    createDriver: () => new ClientDriver(client),
  }
}

/** The compiled query as a client fragment: the text between `?`s, the parameters between them. */
function fragmentOf(query: CompiledQuery): SqlFragment {
  const parts = query.sql.split('?')
  if (parts.length !== query.parameters.length + 1) {
    throw new Error(`cannot split ${JSON.stringify(query.sql)} into ${query.parameters.length} parameters`)
  }
  return new SqlFragment(parts, query.parameters as never[])
}

class ClientConnection implements DatabaseConnection {
  constructor(private readonly client: Client) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (query.query.kind === 'SelectQueryNode' || query.query.kind === 'RawNode') {
      const rows = await (await this.client.query<R>(fragmentOf(query))).rows()
      return { rows }
    }
    await this.client.command(fragmentOf(query))
    return { rows: [] }
  }

  // biome-ignore lint/correctness/useYield: streaming is not part of this stand-in
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the test dialect')
  }
}

class ClientDriver implements Driver {
  constructor(private readonly client: Client) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new ClientConnection(this.client)
  }
  async beginTransaction(): Promise<void> {
    throw new Error('ClickHouse has no transactions')
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}
