import { ClickwireError, type InsertOutcome } from '@clickwire/protocol'

const brand = Symbol.for('clickwire.error.shard-insert')

/**
 * What one shard's part of a direct-to-shard insert became:
 * - `written`: the shard's replica confirmed its rows (`rowsWritten`);
 * - `failed`: the shard's own insert failed (`error`: a ClickHouseError, ConnectionError,
 *   TimeoutError ... whose `insertOutcome`, when set, says whether rows may be stored);
 * - `cancelled`: another shard (or the input) failed first and this shard's insert was
 *   stopped before it finished; `error` is the stop's AbortError, with its `insertOutcome`;
 * - `no-rows`: no row of the insert belonged to this shard, so nothing was sent there.
 */
export interface ShardOutcome {
  /** `shard_num` in `system.clusters`. */
  readonly shard: number
  /** Where the shard's rows went, without credentials (`clickhouse://host:port`). */
  readonly url: string
  /** Rows routed to this shard and handed to its insert. */
  readonly rowsSent: number
  readonly status: 'written' | 'failed' | 'cancelled' | 'no-rows'
  /** Rows the shard confirmed (0 unless `written`). */
  readonly rowsWritten: number
  readonly error?: unknown
  /**
   * What became of the rows of a `failed` or `cancelled` shard: `not-written` when none of
   * them went out to it or its error says so, else its error's outcome (`unknown` when the
   * error says nothing). Absent for `written` and `no-rows`.
   */
  readonly insertOutcome?: InsertOutcome | undefined
}

/**
 * A direct-to-shard insert (`sharding: 'direct'`) that did not complete on every shard.
 * The shards are written independently, so this is a partial write as much as a failure:
 * `shards` lists each shard's outcome. Shards `written` keep their rows (they were
 * confirmed before or while the failure happened); a `failed` or `cancelled` shard stored
 * none, some or all of its rows as its error's `insertOutcome` says. Retrying the whole
 * insert would duplicate the written shards' rows (unless the tables deduplicate inserts).
 * Its own `insertOutcome` sums them up (`overallOutcome` in sharded-insert.ts): `incomplete`
 * when a shard confirmed rows, else the least certain of the shards' outcomes.
 */
export class ShardInsertError extends ClickwireError {
  override name = 'ShardInsertError'
  readonly [brand] = true
  /** `shard_num` of the first shard that failed; undefined when the input itself failed. */
  readonly shard: number | undefined
  readonly shards: readonly ShardOutcome[]

  constructor(
    message: string,
    shard: number | undefined,
    shards: readonly ShardOutcome[],
    options: { cause: unknown; insertOutcome?: InsertOutcome | undefined },
  ) {
    super('SHARD_INSERT', message, options)
    this.shard = shard
    this.shards = shards
  }

  static override isInstance(value: unknown): value is ShardInsertError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }
}

/**
 * The message of a ShardInsertError: which shard failed, why, which shards kept rows, and
 * which may have kept some (a failed or cancelled shard whose error does not say
 * `not-written`): a caller who trusts the message and retries must not duplicate those.
 */
export function shardFailureMessage(
  shard: number | undefined,
  shards: readonly ShardOutcome[],
  cause: unknown,
): string {
  const written = shards.filter((each) => each.status === 'written')
  const maybe = shards.filter((each) => mayHaveStored(each))
  const reason = cause instanceof Error ? cause.message : String(cause)
  const plural = (list: readonly ShardOutcome[]) => (list.length > 1 ? 's' : '')
  const parts: string[] = []
  if (written.length > 0)
    parts.push(
      `shard${plural(written)} ${written.map((each) => `${each.shard} (${each.rowsWritten} rows)`).join(', ')} confirmed their rows`,
    )
  if (maybe.length > 0)
    parts.push(
      `shard${plural(maybe)} ${maybe.map((each) => `${each.shard} (${each.rowsSent} rows sent)`).join(', ')} may have stored rows`,
    )
  const kept = parts.length > 0 ? parts.join('; ') : 'no shard stored rows'
  return `${shard === undefined ? 'the insert input failed' : `the insert into shard ${shard} failed`}: ${reason}; ${kept} (see error.shards)`
}

/** Whether a shard that did not confirm its rows may have stored some of them anyway. */
function mayHaveStored(outcome: ShardOutcome): boolean {
  if (outcome.status !== 'failed' && outcome.status !== 'cancelled') return false
  if (outcome.rowsSent === 0) return false
  return (outcome.insertOutcome ?? shardErrorOutcome(outcome.error)) !== 'not-written'
}

/** The outcome a shard's error states, if any. */
export function shardErrorOutcome(error: unknown): InsertOutcome | undefined {
  return (error as { insertOutcome?: InsertOutcome } | undefined)?.insertOutcome
}
