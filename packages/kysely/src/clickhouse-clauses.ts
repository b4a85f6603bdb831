import { UsageError } from '@clickwire/client'
import { quoteSqlString } from '@clickwire/protocol'
import {
  type ComparisonOperatorExpression,
  type Expression,
  type ExpressionBuilder,
  type ExpressionOrFactory,
  type ExtractTypeFromReferenceExpression,
  expressionBuilder,
  type OperandValueExpressionOrList,
  type OperationNode,
  type ReferenceExpression,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely'
import { type ClauseData, clauseExpression } from './clause-node.js'

/*
 * ClickHouse clauses as Kysely helpers for `$call`. Each returns a function of the builder,
 * so it reads like the rest of the chain:
 *
 *   db.selectFrom('events').$call(final()).$call(prewhere('day', '=', day)).selectAll()
 *
 * The helpers only record the clause; the ClickHouse query compiler writes it where the
 * grammar wants it, whatever the order of the calls.
 */

// biome-ignore lint/suspicious/noExplicitAny: matches any select builder, as Kysely's own helpers do.
type AnySelectQueryBuilder = SelectQueryBuilder<any, any, any>

/** Anything with `modifyEnd`: select, insert, update and delete builders. */
interface EndModifiable {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature.
  modifyEnd(modifier: Expression<any>): unknown
}

function addClause<QB extends EndModifiable>(
  qb: QB,
  data: ClauseData,
  parameters: readonly OperationNode[] = [],
): QB {
  return qb.modifyEnd(clauseExpression(data, parameters)) as QB
}

function joinCount(qb: AnySelectQueryBuilder): number {
  return qb.toOperationNode().joins?.length ?? 0
}

// biome-ignore lint/suspicious/noExplicitAny: a builder for any database; only nodes are taken from it.
const anyBuilder: ExpressionBuilder<any, any> = expressionBuilder()

function identifierNode(name: string): OperationNode {
  return Object.freeze({ kind: 'IdentifierNode', name }) as OperationNode
}

/** The node of a reference: a column name (`'t.c'`), an expression, or a callback of the builder. */
function referenceNode(reference: unknown): OperationNode {
  if (typeof reference === 'string') return anyBuilder.ref(reference).toOperationNode()
  if (typeof reference === 'function')
    return (reference as (eb: unknown) => Expression<unknown>)(anyBuilder).toOperationNode()
  if (typeof reference === 'object' && reference !== null && 'toOperationNode' in reference) {
    return (reference as Expression<unknown>).toOperationNode()
  }
  throw new UsageError(`not a column reference or expression: ${String(reference)}`)
}

/**
 * `FINAL` after the table in FROM: merges rows of ReplacingMergeTree, CollapsingMergeTree
 * and the like at query time, so the result shows each key once.
 *
 * @example
 * ```ts
 * await db.selectFrom('accounts').$call(final()).selectAll().execute()
 * // select * from `accounts` final
 * ```
 */
export function final(): <QB extends AnySelectQueryBuilder>(qb: QB) => QB {
  return (qb) => addClause(qb, { clause: 'final' })
}

/** A ratio (`0.1`, `'1/10'`) or, for SAMPLE, a number of rows (`10000`). */
export type SampleSize = number | bigint | `${number}/${number}` | `${number}`

function sampleText(value: SampleSize, what: string): string {
  const text = typeof value === 'string' ? value.trim() : String(value)
  // The grammar takes an unsigned number or a fraction of two; no exponent, no sign, no
  // parameter (SAMPLE is read before parameters are substituted).
  if (
    (typeof value === 'number' && !(Number.isFinite(value) && value > 0)) ||
    !/^(\d+(\.\d+)?|\d+\s*\/\s*[1-9]\d*)$/.test(text) ||
    /^0+(\.0+)?$/.test(text)
  ) {
    throw new UsageError(
      `${what} must be a positive number without exponent or a fraction like '1/10', got ${String(value)}`,
    )
  }
  return text.replace(/\s+/g, '')
}

/**
 * `SAMPLE k [OFFSET m]` after the table (and FINAL): reads a deterministic part of a table
 * whose engine declares `SAMPLE BY`. `k` is a ratio between 0 and 1 (`0.1`, `'1/10'`) or a
 * number of rows (`10000`); `offset` is a ratio.
 *
 * @example
 * ```ts
 * await db.selectFrom('hits').$call(sample(0.1, { offset: 0.5 })).select('url').execute()
 * // select `url` from `hits` sample 0.1 offset 0.5
 * ```
 */
export function sample(
  size: SampleSize,
  options: { readonly offset?: SampleSize | undefined } = {},
): <QB extends AnySelectQueryBuilder>(qb: QB) => QB {
  const ratio = sampleText(size, 'SAMPLE')
  const offset = options.offset === undefined ? undefined : sampleText(options.offset, 'SAMPLE OFFSET')
  return (qb) => addClause(qb, { clause: 'sample', ratio, offset })
}

/** The builder type a helper gets from `$call`. */
type Select<DB, TB extends keyof DB, O> = SelectQueryBuilder<DB, TB, O>

/**
 * `PREWHERE condition`: a filter ClickHouse applies while reading, before the other columns
 * are read. Takes the same arguments as `where`. Several calls are joined with AND.
 *
 * @example
 * ```ts
 * await db.selectFrom('hits').$call(prewhere('counter_id', '=', 34)).select('url').execute()
 * // select `url` from `hits` prewhere `counter_id` = {p0:Int64}
 * await db.selectFrom('hits').$call(prewhere((eb) => eb('a', '>', 1).and('b', '<', 2))).selectAll().execute()
 * ```
 */
export function prewhere<DB, TB extends keyof DB, O, RE extends ReferenceExpression<DB, TB>>(
  lhs: RE,
  op: ComparisonOperatorExpression,
  rhs: OperandValueExpressionOrList<DB, TB, RE>,
): (qb: Select<DB, TB, O>) => Select<DB, TB, O>
export function prewhere<DB, TB extends keyof DB, O>(
  expression: ExpressionOrFactory<DB, TB, SqlBool>,
): (qb: Select<DB, TB, O>) => Select<DB, TB, O>
export function prewhere(...args: unknown[]): (qb: AnySelectQueryBuilder) => AnySelectQueryBuilder {
  let condition: OperationNode
  if (args.length === 3) {
    const [lhs, op, rhs] = args as [string, ComparisonOperatorExpression, never]
    condition = anyBuilder(lhs, op, rhs).toOperationNode()
  } else if (args.length === 1) {
    condition = referenceNode(args[0])
  } else {
    throw new UsageError('prewhere takes (column, operator, value) or one expression')
  }
  return (qb) => addClause(qb, { clause: 'prewhere' }, [condition])
}

declare const arrayJoinScope: unique symbol
/**
 * The pseudo-table that holds ARRAY JOIN aliases in a query's type. A symbol, so it cannot
 * collide with a table name and cannot be used to qualify a column.
 */
export type ArrayJoinScope = typeof arrayJoinScope

type ElementOf<T> = T extends ReadonlyArray<infer E> ? E : never

/** Arrays to unfold, by the alias each element gets. */
export type ArrayJoinArrays<DB, TB extends keyof DB> = Readonly<Record<string, ReferenceExpression<DB, TB>>>

/** The columns an ARRAY JOIN adds: one per alias, of the array's element type. */
export type ArrayJoinColumns<DB, TB extends keyof DB, A> = {
  [K in keyof A & string]: ElementOf<ExtractTypeFromReferenceExpression<DB, TB, A[K]>>
}

/** A select builder after an ARRAY JOIN: the aliases are columns of the query. */
export type ArrayJoined<DB, TB extends keyof DB, O, Columns> = SelectQueryBuilder<
  DB & { [arrayJoinScope]: Columns },
  TB | ArrayJoinScope,
  O
>

function arrayJoinClause(left: boolean, args: unknown[]) {
  let arrays: Record<string, unknown>
  if (args.length === 2 && typeof args[1] === 'string') arrays = { [args[1]]: args[0] }
  else if (
    args.length === 1 &&
    typeof args[0] === 'object' &&
    args[0] !== null &&
    !('toOperationNode' in args[0])
  )
    arrays = args[0] as Record<string, unknown>
  else throw new UsageError('arrayJoin takes (array, alias) or { alias: array, ... }')
  const aliases = Object.keys(arrays)
  if (aliases.length === 0) throw new UsageError('arrayJoin needs at least one array')
  const parameters = aliases.flatMap((alias) => [referenceNode(arrays[alias]), identifierNode(alias)])
  return (qb: AnySelectQueryBuilder) =>
    addClause(qb, { clause: 'arrayJoin', left, beforeJoin: joinCount(qb) }, parameters)
}

/**
 * `ARRAY JOIN array AS alias, ...`: one row per array element (rows with empty arrays are
 * dropped; see {@link leftArrayJoin}). Each alias becomes a column of the element type.
 * It goes where it is called among the joins. 18.16 takes one ARRAY JOIN per SELECT, with
 * any number of arrays in it (they unfold side by side).
 *
 * @example
 * ```ts
 * await db.selectFrom('posts').$call(arrayJoin('tags', 'tag')).select(['id', 'tag']).execute()
 * // select `id`, `tag` from `posts` array join `tags` as `tag`
 * await db.selectFrom('posts').$call(arrayJoin({ tag: 'tags', score: 'scores' })).select(['tag', 'score']).execute()
 * ```
 */
export function arrayJoin<
  DB,
  TB extends keyof DB,
  O,
  RE extends ReferenceExpression<DB, TB>,
  Alias extends string,
>(
  array: RE,
  alias: Alias,
): (qb: Select<DB, TB, O>) => ArrayJoined<DB, TB, O, ArrayJoinColumns<DB, TB, Record<Alias, RE>>>
export function arrayJoin<DB, TB extends keyof DB, O, A extends ArrayJoinArrays<DB, TB>>(
  arrays: A,
): (qb: Select<DB, TB, O>) => ArrayJoined<DB, TB, O, ArrayJoinColumns<DB, TB, A>>
export function arrayJoin(...args: unknown[]): (qb: AnySelectQueryBuilder) => AnySelectQueryBuilder {
  return arrayJoinClause(false, args)
}

/**
 * `LEFT ARRAY JOIN`: like {@link arrayJoin}, but a row whose array is empty stays, with the
 * element type's default value (0, '', ...) in the alias.
 *
 * @example
 * ```ts
 * await db.selectFrom('posts').$call(leftArrayJoin('tags', 'tag')).select(['id', 'tag']).execute()
 * // select `id`, `tag` from `posts` left array join `tags` as `tag`
 * ```
 */
export function leftArrayJoin<
  DB,
  TB extends keyof DB,
  O,
  RE extends ReferenceExpression<DB, TB>,
  Alias extends string,
>(
  array: RE,
  alias: Alias,
): (qb: Select<DB, TB, O>) => ArrayJoined<DB, TB, O, ArrayJoinColumns<DB, TB, Record<Alias, RE>>>
export function leftArrayJoin<DB, TB extends keyof DB, O, A extends ArrayJoinArrays<DB, TB>>(
  arrays: A,
): (qb: Select<DB, TB, O>) => ArrayJoined<DB, TB, O, ArrayJoinColumns<DB, TB, A>>
export function leftArrayJoin(...args: unknown[]): (qb: AnySelectQueryBuilder) => AnySelectQueryBuilder {
  return arrayJoinClause(true, args)
}

function rowCount(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new UsageError(`${what} must be a non-negative integer, got ${String(value)}`)
  }
  return value
}

/**
 * `LIMIT n BY columns`: at most `n` rows for each distinct value of the columns (after
 * ORDER BY, before LIMIT). `offset` skips rows per group (18.16 refuses an offset there).
 *
 * @example
 * ```ts
 * await db.selectFrom('hits').select(['domain', 'url']).orderBy('hits', 'desc')
 *   .$call(limitBy(3, 'domain')).limit(100).execute()
 * // ... order by `hits` desc limit 3 by `domain` limit 100
 * ```
 */
export function limitBy<DB, TB extends keyof DB, O>(
  limit: number,
  by: ReferenceExpression<DB, TB> | ReadonlyArray<ReferenceExpression<DB, TB>>,
  options: { readonly offset?: number | undefined } = {},
): (qb: Select<DB, TB, O>) => Select<DB, TB, O> {
  const count = rowCount(limit, 'LIMIT BY')
  const offset = options.offset === undefined ? undefined : rowCount(options.offset, 'LIMIT BY offset')
  const columns = (Array.isArray(by) ? by : [by]).map(referenceNode)
  if (columns.length === 0) throw new UsageError('limitBy needs at least one column')
  return (qb) => addClause(qb, { clause: 'limitBy', limit: count, offset }, columns)
}

/** Values of the SETTINGS clause; ClickHouse setting names pass through unchanged. */
export type QuerySettings = Readonly<Record<string, string | number | bigint | boolean>>

function settingLiteral(name: string, value: unknown): string {
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) break
      return String(value)
    case 'bigint':
      return String(value)
    case 'boolean':
      return value ? '1' : '0'
    case 'string':
      return quoteSqlString(value)
  }
  throw new UsageError(`setting ${name} takes a string, a finite number or a boolean, got ${String(value)}`)
}

/**
 * `SETTINGS name = value, ...` for one query: at the end of a SELECT, after the table of an
 * INSERT (a columnar insert sends them with the data), at the end of an ALTER mutation.
 * Values are written as literals (the clause takes no parameters); names are checked.
 *
 * @example
 * ```ts
 * await db.selectFrom('hits').select('url').$call(settings({ max_threads: 2 })).execute()
 * // select `url` from `hits` settings max_threads = 2
 * ```
 */
export function settings(values: QuerySettings): <QB extends EndModifiable>(qb: QB) => QB {
  const pairs = Object.entries(values).map(([name, value]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new UsageError(`not a setting name: ${JSON.stringify(name)}`)
    const clientValue = typeof value === 'bigint' ? String(value) : value
    return [name, settingLiteral(name, value), clientValue] as const
  })
  return (qb) => addClause(qb, { clause: 'settings', settings: pairs })
}

/**
 * `GROUP BY ... WITH TOTALS`: the server adds a totals row over all groups (before HAVING).
 * `execute()` returns the groups; {@link executeWithTotals} returns the totals row too.
 *
 * @example
 * ```ts
 * const { rows, totals } = await executeWithTotals(
 *   db,
 *   db.selectFrom('hits').select(['domain', (eb) => eb.fn.countAll().as('n')]).groupBy('domain').$call(withTotals()),
 * )
 * // select `domain`, count(*) as `n` from `hits` group by `domain` with totals
 * ```
 */
export function withTotals(): <QB extends AnySelectQueryBuilder>(qb: QB) => QB {
  return (qb) => addClause(qb, { clause: 'withTotals' })
}

/**
 * Makes the join added just before it a `GLOBAL` join: on a Distributed table the joined
 * table or subquery is computed once on the initiator and sent to every shard.
 *
 * @example
 * ```ts
 * await db.selectFrom('hits_all as h').innerJoin('users as u', 'u.id', 'h.user_id').$call(globalJoin())
 *   .select(['h.url', 'u.name']).execute()
 * // select ... from `hits_all` as `h` global inner join `users` as `u` on `u`.`id` = `h`.`user_id`
 * ```
 */
export function globalJoin(): <QB extends AnySelectQueryBuilder>(qb: QB) => QB {
  return (qb) => {
    const joins = joinCount(qb)
    if (joins === 0) throw new UsageError('globalJoin() marks the join before it; this query has no join yet')
    return addClause(qb, { clause: 'globalJoin', join: joins - 1 })
  }
}

/**
 * `GLOBAL IN` as a comparison operator: the subquery is computed once on the initiator and
 * sent to every shard of a Distributed table. With a list of values it compiles to plain
 * `IN` (GLOBAL has nothing to do there, and 18.16 refuses it).
 *
 * @example
 * ```ts
 * db.selectFrom('hits_all').where('user_id', globalIn, (eb) => eb.selectFrom('vip').select('id'))
 * // ... where `user_id` global in (select `id` from `vip`)
 * ```
 */
export const globalIn: Expression<unknown> = sql`global in`

/** `GLOBAL NOT IN`; see {@link globalIn}. */
export const globalNotIn: Expression<unknown> = sql`global not in`
