import { UsageError } from '@clickwire/client'
import { quoteSqlIdentifier, quoteSqlString, TypedValue } from '@clickwire/protocol'
import {
  type AddIndexNode,
  type AliasNode,
  type AlterColumnNode,
  type AlterTableNode,
  type BinaryOperationNode,
  type ColumnDefinitionNode,
  type CommonTableExpressionNode,
  type CompiledQuery,
  type CreateIndexNode,
  type CreateSchemaNode,
  type CreateTableNode,
  type CreateViewNode,
  type DataTypeNode,
  DefaultQueryCompiler,
  type DeleteQueryNode,
  type DropIndexNode,
  type DropSchemaNode,
  type DropTableNode,
  type DropViewNode,
  type FromNode,
  type InsertQueryNode,
  type JoinNode,
  type LimitNode,
  type OffsetNode,
  type OperationNode,
  type PrimaryKeyConstraintNode,
  type PrimitiveValueListNode,
  type QueryId,
  type RawNode,
  type RootOperationNode,
  type SelectModifierNode,
  type SelectQueryNode,
  type TableNode,
  type UpdateQueryNode,
  type ValueListNode,
  type ValuesNode,
  type WithNode,
} from 'kysely'
import { type ClauseMarker, splitClauses } from './clause-node.js'
import { isMigratorTable, migratorTableEngine, shardTableEngine } from './cluster-table-engines.js'
import { columnarInsert } from './columnar-insert.js'
import { clickHouseDataType } from './data-type-mapping.js'
import { commonType, inferredType, placeholderType } from './parameter-types.js'
import { currentServerProfile, type ServerProfile } from './server-profile.js'

/** How `deleteFrom` compiles: by server version, or always one form. */
export type DeleteStatement = 'auto' | 'lightweight' | 'mutation'

/** How `updateTable` compiles: always a mutation (the default), by server version, or always lightweight. */
export type UpdateStatement = 'auto' | 'lightweight' | 'mutation'

/** Options of {@link ClickHouseQueryCompiler}. */
export interface ClickHouseQueryCompilerOptions {
  /** The server the SQL is for (default: a current server), or a function read at each compile. */
  readonly profile?: ServerProfile | (() => ServerProfile) | undefined
  /**
   * `auto` (default): lightweight `DELETE FROM` where the server has it (23.3+), else an
   * `ALTER TABLE ... DELETE` mutation. `mutation` always writes the ALTER form.
   */
  readonly deleteStatement?: DeleteStatement | undefined
  /**
   * `mutation` (default): an `ALTER TABLE ... UPDATE` mutation, which every MergeTree table
   * takes. `auto`: lightweight `UPDATE t SET ... WHERE ...` where the server has it (25.8+),
   * else the mutation; `lightweight` always writes the UPDATE form. Lightweight updates work
   * only on tables created with `enable_block_number_column = 1, enable_block_offset_column = 1`
   * (the server refuses others with NOT_IMPLEMENTED), which is why they are not the default.
   */
  readonly updateStatement?: UpdateStatement | undefined
  /**
   * The cluster (a name in the servers' `remote_servers`) every schema-builder DDL runs on:
   * each statement carries `ON CLUSTER <name>`, and Kysely's Migrator tables are created
   * as ReplicatedMergeTree tables copied to every node (the dialect's `cluster` option).
   */
  readonly cluster?: string | undefined
}

/** The profile each compiled query was written for (read by the driver). */
const compiledProfiles = new WeakMap<object, ServerProfile>()

/** The server profile a query was compiled for, when this dialect compiled it. */
export function compiledProfile(query: CompiledQuery): ServerProfile | undefined {
  return compiledProfiles.get(query)
}

const joinKeywords: Readonly<Record<string, string>> = {
  InnerJoin: 'inner join',
  LeftJoin: 'left join',
  RightJoin: 'right join',
  FullJoin: 'full join',
  CrossJoin: 'cross join',
}

/** The ClickHouse clauses a SELECT carries, gathered from its end modifiers. */
interface SelectClauses {
  final: boolean
  sample: { ratio: string; offset?: string | undefined } | undefined
  prewhere: OperationNode[]
  arrayJoins: ClauseMarker[]
  limitBy: ClauseMarker | undefined
  settings: Map<string, string>
  withTotals: boolean
  globalJoins: Set<number>
}

function gatherClauses(markers: readonly ClauseMarker[]): SelectClauses {
  const clauses: SelectClauses = {
    final: false,
    sample: undefined,
    prewhere: [],
    arrayJoins: [],
    limitBy: undefined,
    settings: new Map(),
    withTotals: false,
    globalJoins: new Set(),
  }
  for (const marker of markers) {
    const { data } = marker
    switch (data.clause) {
      case 'final':
        clauses.final = true
        break
      case 'sample':
        clauses.sample = { ratio: data.ratio, offset: data.offset }
        break
      case 'prewhere':
        clauses.prewhere.push(...marker.parameters)
        break
      case 'arrayJoin':
        clauses.arrayJoins.push(marker)
        break
      case 'limitBy':
        clauses.limitBy = marker
        break
      case 'settings':
        for (const [name, value] of data.settings) clauses.settings.set(name, value)
        break
      case 'withTotals':
        clauses.withTotals = true
        break
      case 'globalJoin':
        clauses.globalJoins.add(data.join)
        break
    }
  }
  return clauses
}

function tableName(node: OperationNode): { schema?: string | undefined; name: string } | undefined {
  if (node.kind !== 'TableNode') return undefined
  const { schema, identifier } = (node as TableNode).table
  return { schema: schema?.name, name: identifier.name }
}

const noValue = Symbol('no value')

/** The value an item of a values list sends as a parameter, or `noValue` for SQL to write as is. */
function parameterValue(item: unknown): unknown {
  const node = item as { kind: string; value?: unknown; immediate?: boolean }
  return node.kind === 'ValueNode' && !node.immediate ? node.value : noValue
}

/** A value with the column's common type, unless it carries its own. */
function withType(value: unknown, type: string | undefined): unknown {
  return type === undefined || value instanceof TypedValue ? value : new TypedValue(type, value)
}

function unsupported(what: string, why: string): never {
  throw new UsageError(`ClickHouse has no ${what}: ${why}`)
}

/**
 * Compiles Kysely's query tree to ClickHouse SQL:
 *
 * - identifiers in backquotes, with backslash escapes (`` `a\`b` ``);
 * - values as typed placeholders `{p0:Int64}`, their type inferred from the JS value the way
 *   the client's `sql` template does; the client sends them as server-side parameters or
 *   substitutes them as typed literals, whichever the server supports. Never concatenated;
 * - LIMIT / OFFSET as integer literals (older servers take nothing else there);
 * - the ClickHouse clauses recorded by the helpers (final, sample, prewhere, arrayJoin,
 *   limitBy, settings, withTotals, globalJoin) in their grammatical places:
 *   `FROM t FINAL SAMPLE k ARRAY JOIN ... JOIN ... PREWHERE ... WHERE ... GROUP BY ... WITH TOTALS
 *   HAVING ... ORDER BY ... LIMIT n BY ... LIMIT ... SETTINGS ...`;
 * - `updateTable` / `deleteFrom` as mutations (`ALTER TABLE t UPDATE/DELETE WHERE ...`), or a
 *   lightweight `DELETE FROM` on servers that have it (and a lightweight `UPDATE t SET` when
 *   `updateStatement` asks for it);
 * - common table expressions as `WITH name AS (...)` from 20.10, inlined as subqueries before;
 * - CREATE TABLE with ClickHouse types and, when no engine is given, `ENGINE = MergeTree`
 *   ordered by the primary key.
 */
export class ClickHouseQueryCompiler extends DefaultQueryCompiler {
  readonly #profileSource: () => ServerProfile
  readonly #deleteStatement: DeleteStatement
  readonly #updateStatement: UpdateStatement
  readonly #cluster: string | undefined
  #profile: ServerProfile = currentServerProfile
  /** Common table expressions to inline, innermost scope last. */
  #cteScopes: Map<string, CommonTableExpressionNode>[] = []
  /** Names being inlined right now: inside its own body a name means a real table. */
  #inlining = new Set<string>()

  constructor(options: ClickHouseQueryCompilerOptions = {}) {
    super()
    const { profile = currentServerProfile } = options
    this.#profileSource = typeof profile === 'function' ? profile : () => profile
    this.#deleteStatement = options.deleteStatement ?? 'auto'
    this.#updateStatement = options.updateStatement ?? 'mutation'
    if (options.cluster !== undefined && options.cluster.length === 0) {
      throw new UsageError("cluster names a cluster of the servers' remote_servers; got an empty string")
    }
    this.#cluster = options.cluster
  }

  override compileQuery(node: RootOperationNode, queryId: QueryId): CompiledQuery {
    const profile = this.#profileSource()
    if (columnarInsert(node)) {
      // The driver sends these as Native blocks; the SQL text (one placeholder per value,
      // megabytes for a large insert) is written only if someone reads it.
      const compiler = new ClickHouseQueryCompiler({
        profile,
        deleteStatement: this.#deleteStatement,
        updateStatement: this.#updateStatement,
        cluster: this.#cluster,
      })
      let compiled: CompiledQuery | undefined
      const text = () => {
        compiled ??= compiler.#compileNow(node, queryId, profile)
        return compiled
      }
      const lazy = Object.freeze({
        query: node,
        queryId,
        get sql() {
          return text().sql
        },
        get parameters() {
          return text().parameters
        },
      }) as CompiledQuery
      compiledProfiles.set(lazy, profile)
      return lazy
    }
    return this.#compileNow(node, queryId, profile)
  }

  #compileNow(node: RootOperationNode, queryId: QueryId, profile: ServerProfile): CompiledQuery {
    this.#profile = profile
    this.#cteScopes = []
    this.#inlining = new Set()
    const compiled = super.compileQuery(node, queryId)
    compiledProfiles.set(compiled, profile)
    return compiled
  }

  protected override getLeftIdentifierWrapper(): string {
    return '`'
  }

  protected override getRightIdentifierWrapper(): string {
    return '`'
  }

  // Kysely writes the quotes itself: these give what goes between them.
  protected override sanitizeIdentifier(identifier: string): string {
    return quoteSqlIdentifier(identifier).slice(1, -1)
  }

  protected override sanitizeStringLiteral(value: string): string {
    return quoteSqlString(value).slice(1, -1)
  }

  protected override appendValue(value: unknown): void {
    let type: string
    let parameter = value
    if (value instanceof TypedValue) {
      type = placeholderType(value.type)
      parameter = value.value
    } else {
      type = inferredType(value, this.#profile.parameterTypes)
    }
    this.addParameter(parameter)
    this.append(`{p${this.numParameters - 1}:${type}}`)
  }

  protected override appendImmediateValue(value: unknown): void {
    if (typeof value === 'boolean') {
      // 18.16 knows `true` but not `false`; 0 and 1 are what its booleans are anyway.
      this.append(this.#profile.parameterTypes.bool ? String(value) : value ? '1' : '0')
    } else if (typeof value === 'number' && !Number.isFinite(value)) {
      this.append(Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf')
    } else {
      super.appendImmediateValue(value)
    }
  }

  /** A row count where ClickHouse wants a literal: LIMIT, OFFSET. */
  #appendCount(node: OperationNode, clause: string): void {
    if (node.kind !== 'ValueNode') {
      this.visitNode(node)
      return
    }
    const { value } = node as unknown as { value: unknown }
    if (
      (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) ||
      (typeof value === 'bigint' && value >= 0n)
    ) {
      this.append(String(value))
      return
    }
    throw new UsageError(`${clause} takes a non-negative integer, got ${String(value)}`)
  }

  protected override visitLimit(node: LimitNode): void {
    this.append('limit ')
    this.#appendCount(node.limit, 'LIMIT')
  }

  protected override visitOffset(node: OffsetNode): void {
    this.append('offset ')
    this.#appendCount(node.offset, 'OFFSET')
  }

  protected override visitSelectModifier(node: SelectModifierNode): void {
    if (node.modifier && node.modifier !== 'Distinct') {
      unsupported(
        'row locks',
        `${node.modifier} cannot be used; ClickHouse has no transactions to lock rows in`,
      )
    }
    super.visitSelectModifier(node)
  }

  /**
   * GLOBAL IN matters for subqueries only (they are run once and shipped to the shards); with
   * a list of values it is plain IN, and 18.16 refuses GLOBAL there.
   */
  protected override visitBinaryOperation(node: BinaryOperationNode): void {
    const operator = node.operator
    const right = node.rightOperand.kind
    if (
      operator.kind === 'RawNode' &&
      (right === 'ValueListNode' || right === 'PrimitiveValueListNode') &&
      /^global (not )?in$/.test((operator as RawNode).sqlFragments.join(''))
    ) {
      this.visitNode(node.leftOperand)
      this.append((operator as RawNode).sqlFragments.join('').startsWith('global not') ? ' not in ' : ' in ')
      this.visitNode(node.rightOperand)
      return
    }
    super.visitBinaryOperation(node)
  }

  // -- common table expressions ---------------------------------------------------------------

  /** Opens a scope of CTEs to inline, or prints `WITH` when the server has named subqueries. */
  #enterWith(node: WithNode | undefined, printable: boolean): boolean {
    if (!node) return false
    if (node.recursive)
      unsupported('recursive common table expressions', 'rewrite the query without RECURSIVE')
    if (printable && this.#profile.namedSubqueries) {
      this.visitNode(node)
      this.append(' ')
      return false
    }
    const scope = new Map<string, CommonTableExpressionNode>()
    for (const expression of node.expressions) {
      if (expression.name.columns?.length) {
        unsupported(
          'column lists on common table expressions before 20.10',
          'alias the columns in the subquery instead',
        )
      }
      scope.set(expression.name.table.table.identifier.name, expression)
    }
    this.#cteScopes.push(scope)
    return true
  }

  #inlinedCte(node: OperationNode): CommonTableExpressionNode | undefined {
    const table = tableName(node)
    if (!table || table.schema !== undefined || this.#inlining.has(table.name)) return undefined
    for (let i = this.#cteScopes.length - 1; i >= 0; i--) {
      const found = this.#cteScopes[i]!.get(table.name)
      if (found) return found
    }
    return undefined
  }

  /** A table in FROM or JOIN: a common table expression being inlined becomes `(subquery) AS name`. */
  #visitTableExpression(node: OperationNode): void {
    let table = node
    let alias: OperationNode | undefined
    if (node.kind === 'AliasNode') {
      table = (node as AliasNode).node
      alias = (node as AliasNode).alias
    }
    const cte = this.#inlinedCte(table)
    if (!cte) {
      this.visitNode(node)
      return
    }
    const name = cte.name.table.table.identifier.name
    this.#inlining.add(name)
    try {
      this.visitNode(cte.expression)
    } finally {
      this.#inlining.delete(name)
    }
    this.append(' as ')
    if (alias) this.visitNode(alias)
    else this.visitNode(cte.name.table)
  }

  protected override visitFrom(node: FromNode): void {
    this.append('from ')
    node.froms.forEach((item, index) => {
      if (index > 0) this.append(', ')
      this.#visitTableExpression(item)
    })
  }

  protected override visitJoin(node: JoinNode): void {
    const keyword = joinKeywords[node.joinType]
    if (!keyword) unsupported(`${node.joinType} joins`, 'use inner, left, right, full or cross joins')
    this.append(`${keyword} `)
    this.#visitTableExpression(node.table)
    if (node.on) {
      this.append(' ')
      this.visitNode(node.on)
    }
  }

  // -- SELECT ---------------------------------------------------------------------------------

  protected override visitSelectQuery(node: SelectQueryNode): void {
    const parent = this.parentNode
    const wrapInParens =
      parent !== undefined &&
      !['ParensNode', 'InsertQueryNode', 'CreateTableNode', 'CreateViewNode', 'SetOperationNode'].includes(
        parent.kind,
      )
    const { clauses: markers, rest } = splitClauses(node.endModifiers)
    const clauses = gatherClauses(markers)
    if (parent === undefined && node.explain) {
      this.visitNode(node.explain)
      this.append(' ')
    }
    if (wrapInParens) this.append('(')
    const scoped = this.#enterWith(node.with, true)
    try {
      this.append('select')
      if (node.distinctOn) {
        this.append(' distinct on (')
        this.compileList(node.distinctOn)
        this.append(')')
      }
      if (node.frontModifiers?.length) {
        this.append(' ')
        this.compileList(node.frontModifiers, ' ')
      }
      if (node.top) {
        this.append(' ')
        this.visitNode(node.top)
      }
      if (node.selections) {
        this.append(' ')
        this.compileList(node.selections)
      }
      if (node.from) {
        this.append(' ')
        this.#visitSelectFrom(node.from, clauses)
      } else if (clauses.final || clauses.sample) {
        throw new UsageError('FINAL and SAMPLE apply to the table in FROM; this query has none')
      }
      this.#visitJoins(node.joins ?? [], clauses)
      if (clauses.prewhere.length > 0) {
        this.append(' prewhere ')
        this.#visitConjunction(clauses.prewhere)
      }
      if (node.where) {
        this.append(' ')
        this.visitNode(node.where)
      }
      if (node.groupBy) {
        this.append(' ')
        this.visitNode(node.groupBy)
      }
      if (clauses.withTotals) this.append(' with totals')
      if (node.having) {
        this.append(' ')
        this.visitNode(node.having)
      }
      if (node.setOperations) {
        this.append(' ')
        this.compileList(node.setOperations, ' ')
      }
      if (node.orderBy) {
        this.append(' ')
        this.visitNode(node.orderBy)
      }
      if (clauses.limitBy) this.#visitLimitBy(clauses.limitBy)
      if (node.limit) {
        this.append(' ')
        this.visitNode(node.limit)
      }
      if (node.offset) {
        this.append(' ')
        this.visitNode(node.offset)
      }
      if (node.fetch) {
        this.append(' ')
        this.visitNode(node.fetch)
      }
      this.#appendSettings(clauses.settings)
      if (rest.length > 0) {
        this.append(' ')
        this.compileList(this.sortSelectModifiers([...rest]), ' ')
      }
    } finally {
      if (scoped) this.#cteScopes.pop()
    }
    if (wrapInParens) this.append(')')
  }

  /** FROM, with FINAL and SAMPLE after the first table (and its alias), where they belong. */
  #visitSelectFrom(from: FromNode, clauses: SelectClauses): void {
    this.append('from ')
    from.froms.forEach((item, index) => {
      if (index > 0) this.append(', ')
      this.#visitTableExpression(item)
      if (index > 0) return
      if (clauses.final) this.append(' final')
      if (clauses.sample) {
        this.append(` sample ${clauses.sample.ratio}`)
        if (clauses.sample.offset !== undefined) this.append(` offset ${clauses.sample.offset}`)
      }
    })
  }

  /** Joins in order, each ARRAY JOIN before the join it was added ahead of, GLOBAL where marked. */
  #visitJoins(joins: readonly JoinNode[], clauses: SelectClauses): void {
    for (const index of clauses.globalJoins) {
      if (index >= joins.length) throw new UsageError('globalJoin() marks a join this query does not have')
    }
    const arrayJoinsBefore = (position: number) =>
      clauses.arrayJoins.filter(
        (marker) =>
          marker.data.clause === 'arrayJoin' && Math.min(marker.data.beforeJoin, joins.length) === position,
      )
    for (let index = 0; index <= joins.length; index++) {
      for (const marker of arrayJoinsBefore(index)) this.#visitArrayJoin(marker)
      const join = joins[index]
      if (!join) continue
      this.append(' ')
      if (clauses.globalJoins.has(index)) this.append('global ')
      this.visitNode(join)
    }
  }

  #visitArrayJoin(marker: ClauseMarker): void {
    if (marker.data.clause !== 'arrayJoin') return
    this.append(marker.data.left ? ' left array join ' : ' array join ')
    // Parameters alternate: array expression, alias identifier.
    for (let index = 0; index < marker.parameters.length; index += 2) {
      if (index > 0) this.append(', ')
      this.visitNode(marker.parameters[index]!)
      this.append(' as ')
      this.visitNode(marker.parameters[index + 1]!)
    }
  }

  #visitConjunction(conditions: readonly OperationNode[]): void {
    conditions.forEach((condition, index) => {
      if (index > 0) this.append(' and ')
      // Each condition in parentheses, so `a or b` from one call cannot absorb the next.
      if (conditions.length > 1) this.append('(')
      this.visitNode(condition)
      if (conditions.length > 1) this.append(')')
    })
  }

  #visitLimitBy(marker: ClauseMarker): void {
    if (marker.data.clause !== 'limitBy') return
    this.append(' limit ')
    if (marker.data.offset !== undefined) this.append(`${marker.data.offset}, `)
    this.append(`${marker.data.limit} by `)
    this.compileList(marker.parameters)
  }

  #appendSettings(settings: ReadonlyMap<string, string>): void {
    if (settings.size === 0) return
    this.append(' settings ')
    this.append(Array.from(settings, ([name, value]) => `${name} = ${value}`).join(', '))
  }

  // -- INSERT ---------------------------------------------------------------------------------

  protected override visitInsertQuery(node: InsertQueryNode): void {
    if (this.parentNode !== undefined) unsupported('nested INSERT', 'run it as its own query')
    if (node.returning || node.output) unsupported('RETURNING', 'read the rows back with a SELECT')
    if (node.onConflict || node.onDuplicateKey) {
      unsupported('ON CONFLICT', 'use a ReplacingMergeTree table, which keeps the last row per key')
    }
    if (node.replace || (node as { ignore?: boolean }).ignore || node.orAction)
      unsupported('INSERT OR / REPLACE / IGNORE', 'use a plain insert')
    if (node.defaultValues) unsupported('DEFAULT VALUES', 'name at least one column')
    if (node.top) unsupported('TOP', 'limit the SELECT instead')
    const { clauses, rest } = splitClauses(node.endModifiers)
    const settings = gatherClauses(clauses).settings
    if (node.explain) {
      this.visitNode(node.explain)
      this.append(' ')
    }
    // ClickHouse takes WITH inside the SELECT part; inlining keeps it valid on every server.
    const scoped = this.#enterWith(node.with, false)
    try {
      this.append('insert into ')
      if (node.into) this.visitNode(node.into)
      if (node.columns) {
        this.append(' (')
        this.compileList(node.columns)
        this.append(')')
      }
      this.#appendSettings(settings)
      if (node.values) {
        this.append(' ')
        this.visitNode(node.values)
      }
      if (rest.length > 0) {
        this.append(' ')
        this.compileList(rest, ' ')
      }
    } finally {
      if (scoped) this.#cteScopes.pop()
    }
  }

  /**
   * VALUES rows as `SELECT ... UNION ALL SELECT ...`. Over the native protocol the client, not
   * the server, must turn inline VALUES data into blocks (clickhouse-client parses it against
   * the table header); INSERT ... SELECT runs entirely on the server, over every transport,
   * and its placeholders are ordinary query parameters. The server converts each column to
   * the table's type as it does for VALUES. UNION ALL needs one type per column across the
   * rows (Int64 and Float64 have no common supertype), so the values of a column share the
   * type inferred for all of them together.
   */
  protected override visitValues(node: ValuesNode): void {
    const types = this.#columnTypes(node)
    node.values.forEach((row, index) => {
      if (index > 0) this.append(' union all ')
      this.append('select ')
      if (row.kind === 'PrimitiveValueListNode') {
        ;(row as PrimitiveValueListNode).values.forEach((value, position) => {
          if (position > 0) this.append(', ')
          this.appendValue(withType(value, types[position]))
        })
        return
      }
      ;(row as ValueListNode).values.forEach((item, position) => {
        if (item.kind === 'DefaultInsertValueNode') {
          throw new UsageError(
            'a row without a value for a column that other rows give, next to SQL expressions: ClickHouse has no DEFAULT in INSERT ... SELECT; give that row the column too',
          )
        }
        if (position > 0) this.append(', ')
        const value = parameterValue(item)
        if (value === noValue) this.visitNode(item)
        else this.appendValue(withType(value, types[position]))
      })
    })
  }

  /** One type per column for the plain values in it (undefined where there are none). */
  #columnTypes(node: ValuesNode): (string | undefined)[] {
    const columns: unknown[][] = []
    for (const row of node.values) {
      const items: readonly unknown[] =
        row.kind === 'PrimitiveValueListNode'
          ? (row as PrimitiveValueListNode).values
          : (row as ValueListNode).values.map(parameterValue)
      items.forEach((value, position) => {
        if (value !== noValue && !(value instanceof TypedValue)) (columns[position] ??= []).push(value)
      })
    }
    const names = (this.parentNode as InsertQueryNode | undefined)?.columns
    return Array.from(columns, (values, position) => {
      if (!values) return undefined
      try {
        return commonType(values, this.#profile.parameterTypes)
      } catch (error) {
        const name = names?.[position]?.column.name ?? `#${position + 1}`
        throw new UsageError(
          `the values of column ${name} have no common ClickHouse type: ${(error as Error).message.replace(/; declare.*$/, '')}; give them one type or wrap them with typed(value, 'Type')`,
          { cause: error },
        )
      }
    })
  }

  // -- mutations ------------------------------------------------------------------------------

  /** The table of a mutation: plain `[db.]table`, since ALTER takes no alias. */
  #mutationTable(node: OperationNode | undefined, statement: string): OperationNode {
    if (node?.kind !== 'TableNode') {
      throw new UsageError(
        `${statement} takes one table without an alias (ClickHouse mutations name the table only)`,
      )
    }
    return node
  }

  #mutationWhere(where: { where: OperationNode } | undefined): void {
    this.append(' where ')
    // ClickHouse requires a WHERE on mutations; no filter means every row.
    if (where) this.visitNode(where.where)
    else this.append('1')
  }

  protected override visitUpdateQuery(node: UpdateQueryNode): void {
    if (this.parentNode !== undefined) unsupported('nested UPDATE', 'run it as its own query')
    if (node.returning || node.output) unsupported('RETURNING', 'read the rows back with a SELECT')
    if (node.from || node.joins?.length)
      unsupported('UPDATE ... FROM / JOIN', 'use a subquery in SET or WHERE')
    if (node.orderBy || node.limit || node.top) unsupported('ORDER BY / LIMIT in UPDATE', 'narrow the WHERE')
    if (node.with) unsupported('WITH in mutations', 'use subqueries in WHERE')
    if (!node.updates?.length) throw new UsageError('updateTable needs set(...)')
    const { clauses, rest } = splitClauses(node.endModifiers)
    const table = this.#mutationTable(node.table, 'updateTable')
    const lightweight =
      this.#updateStatement === 'lightweight' ||
      (this.#updateStatement === 'auto' && this.#profile.lightweightUpdate)
    if (lightweight) {
      this.append('update ')
      this.visitNode(table)
      this.append(' set ')
    } else {
      this.append('alter table ')
      this.visitNode(table)
      this.append(' update ')
    }
    this.compileList(node.updates)
    this.#mutationWhere(node.where)
    this.#appendSettings(gatherClauses(clauses).settings)
    if (rest.length > 0) {
      this.append(' ')
      this.compileList(rest, ' ')
    }
  }

  protected override visitDeleteQuery(node: DeleteQueryNode): void {
    if (this.parentNode !== undefined) unsupported('nested DELETE', 'run it as its own query')
    if (node.returning || node.output) unsupported('RETURNING', 'read the rows first with a SELECT')
    if (node.using || node.joins?.length) unsupported('DELETE ... USING / JOIN', 'use a subquery in WHERE')
    if (node.orderBy || node.limit || node.top) unsupported('ORDER BY / LIMIT in DELETE', 'narrow the WHERE')
    if (node.with) unsupported('WITH in mutations', 'use subqueries in WHERE')
    if (node.from.froms.length !== 1) throw new UsageError('deleteFrom takes exactly one table')
    const table = this.#mutationTable(node.from.froms[0], 'deleteFrom')
    const { clauses, rest } = splitClauses(node.endModifiers)
    const lightweight =
      this.#deleteStatement === 'lightweight' ||
      (this.#deleteStatement === 'auto' && this.#profile.lightweightDelete)
    if (lightweight) {
      this.append('delete from ')
      this.visitNode(table)
      this.#mutationWhere(node.where)
    } else {
      this.append('alter table ')
      this.visitNode(table)
      this.append(' delete')
      this.#mutationWhere(node.where)
    }
    this.#appendSettings(gatherClauses(clauses).settings)
    if (rest.length > 0) {
      this.append(' ')
      this.compileList(rest, ' ')
    }
  }

  // -- DDL ------------------------------------------------------------------------------------

  protected override visitDataType(node: DataTypeNode): void {
    this.append(clickHouseDataType(node.dataType, this.#profile))
  }

  protected override visitCreateTable(node: CreateTableNode): void {
    if (node.onCommit) unsupported('ON COMMIT', 'temporary tables live for the session')
    const primaryKey: OperationNode[] = []
    for (const column of node.columns) if (column.primaryKey) primaryKey.push(column.column)
    for (const constraint of node.constraints ?? []) {
      if (constraint.kind !== 'PrimaryKeyConstraintNode') {
        unsupported(
          `${constraint.kind.replace(/Node$/, '')}s`,
          'ClickHouse tables have no constraints but CHECK',
        )
      }
      primaryKey.push(...(constraint as PrimaryKeyConstraintNode).columns)
    }
    this.append('create ')
    if (node.frontModifiers?.length) {
      this.compileList(node.frontModifiers, ' ')
      this.append(' ')
    }
    if (node.temporary) this.append('temporary ')
    this.append('table ')
    if (node.ifNotExists) this.append('if not exists ')
    this.visitNode(node.table)
    if (!node.temporary) this.#appendOnCluster()
    if (!node.selectQuery) {
      this.append(' (')
      this.compileList(node.columns)
      this.append(')')
    }
    if (node.endModifiers?.length) {
      this.append(' ')
      this.compileList(node.endModifiers, ' ')
    } else if (!node.temporary) {
      // A table needs an engine. Without one given (modifyEnd(sql`engine = ...`)), the
      // primary key becomes the MergeTree sorting key, which is also its primary index.
      // On a cluster the table is replicated: the Migrator's tables to every node, others
      // within their shard (ALTER ... ON CLUSTER refuses a plain MergeTree on a cluster
      // whose shards have replicas: 371 "Table ... isn't replicated").
      this.append(' engine = ')
      if (this.#cluster === undefined) this.append('MergeTree')
      else {
        const name = node.table.table.identifier.name
        this.append(isMigratorTable(node) ? migratorTableEngine(this.#cluster, name) : shardTableEngine(name))
      }
      this.append(' order by ')
      if (primaryKey.length === 0) this.append('tuple()')
      else if (primaryKey.length === 1) this.visitNode(primaryKey[0]!)
      else {
        this.append('(')
        this.compileList(primaryKey)
        this.append(')')
      }
    }
    if (node.selectQuery) {
      this.append(' as ')
      this.visitNode(node.selectQuery)
    }
  }

  protected override visitColumnDefinition(node: ColumnDefinitionNode): void {
    if (node.autoIncrement || node.identity)
      unsupported('auto-increment columns', 'generate ids in the application (generateUUIDv4(), ...)')
    if (node.unique || node.nullsNotDistinct)
      unsupported('UNIQUE constraints', 'a ReplacingMergeTree keeps one row per key')
    if (node.references) unsupported('foreign keys', 'ClickHouse does not enforce relations')
    if (node.ifNotExists) this.append('if not exists ')
    this.visitNode(node.column)
    this.append(' ')
    this.visitNode(node.dataType)
    if (node.frontModifiers?.length) {
      this.append(' ')
      this.compileList(node.frontModifiers, ' ')
    }
    if (node.generated) {
      this.append(' ')
      this.visitNode(node.generated)
    }
    if (node.defaultTo) {
      this.append(' ')
      this.visitNode(node.defaultTo)
    }
    // NOT NULL is the ClickHouse default (a nullable column is declared Nullable(T)), and
    // 18.16 refuses the words; PRIMARY KEY goes to the engine's ORDER BY.
    if (node.check) {
      this.append(' ')
      this.visitNode(node.check)
    }
    if (node.endModifiers?.length) {
      this.append(' ')
      this.compileList(node.endModifiers, ' ')
    }
  }

  /** ` on cluster <name>` when the dialect runs DDL on a cluster. */
  #appendOnCluster(): void {
    if (this.#cluster === undefined) return
    this.append(' on cluster ')
    this.append(this.getLeftIdentifierWrapper())
    this.append(this.sanitizeIdentifier(this.#cluster))
    this.append(this.getRightIdentifierWrapper())
  }

  protected override visitCreateSchema(node: CreateSchemaNode): void {
    this.append('create database ')
    if (node.ifNotExists) this.append('if not exists ')
    this.visitNode(node.schema)
    this.#appendOnCluster()
  }

  protected override visitDropSchema(node: DropSchemaNode): void {
    this.append('drop database ')
    if (node.ifExists) this.append('if exists ')
    this.visitNode(node.schema)
    this.#appendOnCluster()
  }

  protected override visitDropTable(node: DropTableNode): void {
    if (node.cascade) unsupported('DROP TABLE ... CASCADE', 'drop the dependent views first')
    this.append('drop table ')
    if (node.ifExists) this.append('if exists ')
    this.visitNode(node.table)
    this.#appendOnCluster()
  }

  protected override visitCreateView(node: CreateViewNode): void {
    this.append('create ')
    if (node.orReplace) this.append('or replace ')
    if (node.materialized) this.append('materialized ')
    if (node.temporary) this.append('temporary ')
    this.append('view ')
    if (node.ifNotExists) this.append('if not exists ')
    this.visitNode(node.name)
    this.#appendOnCluster()
    if (node.columns) {
      this.append(' (')
      this.compileList(node.columns)
      this.append(')')
    }
    if (node.as) {
      this.append(' as ')
      this.visitNode(node.as)
    }
  }

  /** A view is dropped as a table: every server has DROP TABLE for views, 18.16 no DROP VIEW. */
  protected override visitDropView(node: DropViewNode): void {
    if (node.cascade) unsupported('DROP VIEW ... CASCADE', 'drop the dependent views first')
    this.append('drop table ')
    if (node.ifExists) this.append('if exists ')
    this.visitNode(node.name)
    this.#appendOnCluster()
  }

  /**
   * `ADD INDEX name (columns) TYPE type`: ClickHouse's indexes are data-skipping indexes,
   * and each names its type; Kysely's `using(...)` gives it, with `GRANULARITY n` after the
   * type when wanted (`.using('bloom_filter(0.01) GRANULARITY 4')`).
   */
  protected override visitAddIndex(node: AddIndexNode): void {
    if (node.unique) unsupported('UNIQUE indexes', 'its indexes skip data; a primary key orders it')
    if (!node.using) {
      unsupported(
        'index without a type',
        "name the data-skipping index type with .using('minmax'), .using('set(100)'), .using('bloom_filter(0.01) GRANULARITY 4'), ...",
      )
    }
    this.append('add index ')
    this.visitNode(node.name)
    if (node.columns) {
      this.append(' (')
      this.compileList(node.columns)
      this.append(')')
    }
    this.append(' type ')
    this.visitNode(node.using)
  }

  protected override visitCreateIndex(node: CreateIndexNode): void {
    if (this.#cluster !== undefined) {
      unsupported('CREATE INDEX ... ON CLUSTER', 'use alterTable(t).addIndex(...), which runs on the cluster')
    }
    super.visitCreateIndex(node)
  }

  protected override visitDropIndex(node: DropIndexNode): void {
    if (this.#cluster !== undefined && this.parentNode?.kind !== 'AlterTableNode') {
      unsupported('DROP INDEX ... ON CLUSTER', 'use alterTable(t).dropIndex(...), which runs on the cluster')
    }
    super.visitDropIndex(node)
  }

  protected override visitAlterTable(node: AlterTableNode): void {
    if (node.renameTo) {
      this.append('rename table ')
      this.visitNode(node.table)
      this.append(' to ')
      this.visitNode(node.renameTo)
      this.#appendOnCluster()
      return
    }
    if (node.setSchema) unsupported('SET SCHEMA', 'use renameTo with a table in the other database')
    if (this.#cluster === undefined) {
      super.visitAlterTable(node)
      return
    }
    // Kysely's own ALTER with ON CLUSTER between the table and the first alteration.
    this.append('alter table ')
    this.visitNode(node.table)
    this.#appendOnCluster()
    this.append(' ')
    for (const part of [node.addConstraint, node.dropConstraint, node.renameConstraint]) {
      if (part) this.visitNode(part)
    }
    if (node.columnAlterations) this.compileColumnAlterations(node.columnAlterations)
    if (node.addIndex) this.visitNode(node.addIndex)
    if (node.dropIndex) this.visitNode(node.dropIndex)
  }

  protected override visitAlterColumn(node: AlterColumnNode): void {
    if (node.setNotNull || node.dropNotNull) {
      unsupported('NOT NULL changes', 'modify the column type to or from Nullable(T)')
    }
    this.append('modify column ')
    this.visitNode(node.column)
    if (node.dataType) {
      this.append(' ')
      this.visitNode(node.dataType)
    } else if (node.setDefault) {
      this.append(' default ')
      this.visitNode(node.setDefault)
    } else if (node.dropDefault) {
      this.append(' remove default')
    }
  }
}
