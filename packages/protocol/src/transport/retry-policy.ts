import { isReadOnlyStatement } from '../sql/statement-kind.js'

/*
 * When a request that failed on a pooled connection is sent again, on both transports.
 *
 * A server closes idle connections (a keep-alive limit, a restart, a load balancer), and a
 * client learns of it only when it next uses one: the request then fails before any byte of
 * the answer arrives. Sending it again on another connection hides that, but only where a
 * second copy cannot do harm, because the same failure also happens when the server did get
 * the request and went away while running it, and the client cannot tell the two apart.
 *
 * A request is sent again when all of these hold:
 *
 * 1. it failed with a connection failure (a reset, a closed socket), not a timeout, an
 *    abort, a server error or a usage error, and the transport is not closing;
 * 2. on a connection that had already served a request (a pooled one) — or, over HTTP,
 *    where the backend does not say which socket it used, with a failure of the kind a
 *    stale kept-alive socket gives (a socket reset or close before the response, not a
 *    failed connect);
 * 3. before any byte of the answer arrived (no packet over native, no status line over HTTP);
 * 4. at most once per pooled connection, then once on a fresh one;
 * 5. and the request is safe to repeat:
 *    - a statement that only reads (SELECT, WITH, SHOW, DESCRIBE, EXISTS, EXPLAIN, CHECK, and
 *      ping): running it twice changes nothing;
 *    - an `insert()` none of whose rows had left the client: native sends rows only after
 *      the server answered the INSERT with the table's header, so an insert that failed
 *      before any answer sent none; HTTP streams the rows in the request body, so only an
 *      insert whose body had not started (the producer was not yet asked for a row) qualifies.
 *      Without rows the server has nothing to write, and the producer can be asked afresh;
 *    - nothing else: DDL, mutations, `INSERT ... SELECT` / `VALUES` sent as a statement,
 *      KILL, SYSTEM, OPTIMIZE carry their effect in the statement text itself, and the
 *      server may have run it.
 *
 * A caller that knows better (an idempotent DDL such as `CREATE TABLE IF NOT EXISTS`) can
 * say so with the HTTP transport's `retryable` option.
 */

/** What was being sent when a request failed. */
export type RepeatableRequest =
  /** A statement (query, command, a transport's own probe); `retryable` overrides the check of its text. */
  | { readonly kind: 'statement'; readonly sql: string; readonly retryable?: boolean | undefined }
  /** A ping: it changes nothing. */
  | { readonly kind: 'ping' }
  /** `insert()`: whether any of its rows had left the client (or been asked of the producer). */
  | { readonly kind: 'insert'; readonly rowsStarted: boolean }

/** What a transport knows about a failed attempt (see the conditions above). */
export interface FailedAttempt {
  /** Conditions 1 to 3: a connection failure, on a reused connection, before any answer byte. */
  readonly staleConnection: boolean
  readonly request: RepeatableRequest
  /** Attempts made so far, the failed one included (1 after the first failure). */
  readonly attempts: number
  /** Pooled connections that may each be stale (the pool's size); one more attempt goes to a fresh one. */
  readonly pooledConnections: number
}

/** Whether a request may be repeated without harm, whatever the server did with the first copy. */
export function safeToRepeat(request: RepeatableRequest): boolean {
  switch (request.kind) {
    case 'ping':
      return true
    case 'insert':
      return !request.rowsStarted
    case 'statement':
      return request.retryable ?? isReadOnlyStatement(request.sql)
  }
}

/** Whether to send a failed request again on another connection (the policy described above). */
export function shouldRetry(failed: FailedAttempt): boolean {
  return failed.staleConnection && failed.attempts <= failed.pooledConnections && safeToRepeat(failed.request)
}
