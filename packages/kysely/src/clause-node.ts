import type { Expression, OperationNode, RawNode } from 'kysely'

/*
 * ClickHouse clauses travel through Kysely's tree as end modifiers (`modifyEnd`), the one
 * place a builder accepts arbitrary nodes. Each is a RawNode whose first SQL fragment is a
 * marker with the clause's data and whose parameters are the clause's expressions. Kysely's
 * transformers (plugins such as CamelCasePlugin or WithSchemaPlugin) rebuild a RawNode from
 * its fragments and transformed parameters, so the marker survives them and the expressions
 * inside get the same treatment as the rest of the query. The ClickHouse compiler takes the
 * markers out and writes each clause where the grammar wants it; any other compiler would
 * print the NUL-led marker and the server would refuse it, so nothing passes silently.
 */

const marker = '\u0000clickwire.clause:'

/** The data of one ClickHouse clause (expressions travel as node parameters). */
export type ClauseData =
  | { readonly clause: 'final' }
  | { readonly clause: 'sample'; readonly ratio: string; readonly offset?: string | undefined }
  /** parameters: [condition] */
  | { readonly clause: 'prewhere' }
  /**
   * parameters: array expression and alias identifier, alternating (the alias as a node, so
   * that plugins rename it like the references to it); placed before join number `beforeJoin`.
   */
  | { readonly clause: 'arrayJoin'; readonly left: boolean; readonly beforeJoin: number }
  /** parameters: the BY expressions. */
  | { readonly clause: 'limitBy'; readonly limit: number; readonly offset?: number | undefined }
  /** Each setting as [name, SQL literal, value for the client]. */
  | {
      readonly clause: 'settings'
      readonly settings: readonly (readonly [string, string, string | number | boolean])[]
    }
  | { readonly clause: 'withTotals' }
  | { readonly clause: 'globalJoin'; readonly join: number }

/** A clause read back from a node. */
export interface ClauseMarker {
  readonly data: ClauseData
  readonly parameters: readonly OperationNode[]
}

/** The node that carries a clause. */
export function clauseNode(data: ClauseData, parameters: readonly OperationNode[] = []): RawNode {
  return Object.freeze({
    kind: 'RawNode',
    sqlFragments: Object.freeze([marker + JSON.stringify(data), ...parameters.map(() => '')]),
    parameters: Object.freeze([...parameters]),
  })
}

/** The clause as an expression for `modifyEnd`. */
export function clauseExpression(
  data: ClauseData,
  parameters: readonly OperationNode[] = [],
): Expression<unknown> {
  const node = clauseNode(data, parameters)
  return {
    get expressionType() {
      return undefined
    },
    toOperationNode: () => node,
  }
}

/**
 * The clause an end modifier carries, or undefined for an ordinary modifier. Select builders
 * wrap modifiers in a SelectModifierNode; insert, update and delete builders keep them bare.
 */
export function readClause(node: OperationNode): ClauseMarker | undefined {
  let raw: OperationNode | undefined = node
  if (node.kind === 'SelectModifierNode') raw = (node as { rawModifier?: OperationNode }).rawModifier
  if (raw?.kind !== 'RawNode') return undefined
  const { sqlFragments, parameters } = raw as RawNode
  const first = sqlFragments[0]
  if (first === undefined || !first.startsWith(marker)) return undefined
  return { data: JSON.parse(first.slice(marker.length)) as ClauseData, parameters }
}

/** Splits end modifiers into ClickHouse clauses and the rest. */
export function splitClauses<T extends OperationNode>(
  modifiers: readonly T[] | undefined,
): { clauses: ClauseMarker[]; rest: T[] } {
  const clauses: ClauseMarker[] = []
  const rest: T[] = []
  for (const modifier of modifiers ?? []) {
    const clause = readClause(modifier)
    if (clause) clauses.push(clause)
    else rest.push(modifier)
  }
  return { clauses, rest }
}
