import type { BlockStream, NativeBlock, TraceContext } from '@clickwire/protocol'
import { type ClientLog, errorContext } from './client-logger.js'
import type { QuerySummary } from './query-summary.js'
import type { TracedCall } from './query-tracing.js'
import type { CallTracer } from './query-tracing-loader.js'

/** The calls the client logs and traces. */
export type ObservedKind = 'query' | 'insert' | 'command' | 'queryRaw' | 'insertRaw'

/** What a call is, when it starts. */
export interface CallStart {
  readonly kind: ObservedKind
  readonly queryId: string
  readonly sql?: string | undefined
  readonly table?: string | undefined
}

/** The statement's first keyword, upper case (`SELECT`, `WITH`, `CREATE`); `INSERT` for inserts. */
export function operationOf(start: Pick<CallStart, 'sql' | 'table'>): string {
  if (start.table !== undefined) return 'INSERT'
  const sql = (start.sql ?? '').replace(/^(?:\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/|\()+/, '')
  return /^[A-Za-z]+/.exec(sql)?.[0]?.toUpperCase() ?? 'QUERY'
}

/** Longest query text a debug entry carries. */
const loggedQueryChars = 1000

/**
 * Logging and tracing around the calls of one client: a call begins (a span starts, its
 * trace context goes to the server) and finishes with its error or summary (the span ends,
 * the entry is logged). One place, so that both transports report the same entries.
 */
export class CallObserver {
  constructor(
    readonly log: ClientLog,
    readonly tracer: CallTracer | undefined,
    readonly transport: 'native' | 'http',
    /** The `redactParams` option: parameter values are masked in a call's errors before they are logged, traced or thrown. */
    redactParams = false,
  ) {
    // Loaded only with the option on: the redaction code is no part of a page's first load.
    if (redactParams) this.#redaction = import('./parameter-redaction.js')
  }

  readonly #redaction: Promise<typeof import('./parameter-redaction.js')> | undefined

  /** Starts observing a call; with tracing on, its span is started first. */
  async begin(start: CallStart): Promise<ObservedCall> {
    const redact = this.#redaction && (await this.#redaction).redactErrorParameters
    const operation = operationOf(start)
    const traced = this.tracer
      ? await this.tracer.start({
          operation,
          queryText: start.sql,
          collection: start.table,
          queryId: start.queryId,
        })
      : undefined
    const call = new ObservedCall(this.log, start, operation, this.transport, traced, redact)
    if (this.log.enabled('debug')) {
      this.log.debug(`${start.kind} started`, {
        queryId: start.queryId,
        transport: this.transport,
        operation,
        table: start.table,
        query: start.sql?.slice(0, loggedQueryChars),
      })
    }
    return call
  }
}

/** One call being observed: what it adds to the transport's options, and its end. */
export class ObservedCall {
  /** The response headers (HTTP; names lower case), once they arrived. */
  responseHeaders: Readonly<Record<string, string>> = {}
  /**
   * The values sent with the call, set once known (a `sql` fragment's after it is compiled);
   * masked in its errors when `redactParams` is on.
   */
  params: Readonly<Record<string, unknown>> | undefined
  readonly #startedAt = performance.now()
  #finished = false

  constructor(
    private readonly log: ClientLog,
    private readonly start: CallStart,
    private readonly operation: string,
    private readonly transport: 'native' | 'http',
    private readonly traced: TracedCall | undefined,
    private readonly redact?:
      | ((error: unknown, params: Readonly<Record<string, unknown>>) => void)
      | undefined,
  ) {}

  /** Options for the transport: the trace context, and a hook for the response headers. */
  get requestOptions(): {
    traceContext: TraceContext | undefined
    onResponseHeaders: (headers: Readonly<Record<string, string>>) => void
    onRetry: (attempt: number, error: unknown) => void
  } {
    return {
      traceContext: this.traced?.traceContext,
      onResponseHeaders: (headers) => {
        this.responseHeaders = headers
      },
      onRetry: (attempt, error) => {
        this.log.info(`${this.start.kind} sent again`, {
          queryId: this.start.queryId,
          transport: this.transport,
          operation: this.operation,
          attempt,
          ...errorContext(error),
        })
      },
    }
  }

  /** Ends the call once: logs it (failed or finished) and ends its span. */
  finish(error: unknown, summary: QuerySummary | undefined): void {
    if (this.#finished) return
    this.#finished = true
    // With `redactParams`, every parameter value's place in the error's message (and in its
    // nested errors) becomes `{name:***}`, in place: the caller gets the same object.
    if (this.redact && this.params) this.redact(error, this.params)
    const elapsedMs = Math.round(performance.now() - this.#startedAt)
    const base = {
      queryId: this.start.queryId,
      transport: this.transport,
      operation: this.operation,
      elapsedMs,
    }
    if (error !== undefined) {
      this.log.error(`${this.start.kind} failed`, { ...base, ...errorContext(error) })
    } else if (this.log.enabled('debug')) {
      this.log.debug(`${this.start.kind} finished`, {
        ...base,
        resultRows: summary?.resultRows,
        readRows: summary?.readRows,
        writtenRows: summary?.writtenRows,
      })
    }
    this.traced?.end(error, summary)
  }
}

/**
 * `stream` with `onEnd` called once when its blocks were read to the end (no error),
 * failed (the error), or were left early or cancelled (`cancelled`). Everything else is
 * the stream's own.
 */
export function watchStreamEnd(
  stream: BlockStream,
  onEnd: (error: unknown, complete: boolean) => void,
): BlockStream & { readonly deliveredRows: number | undefined } {
  let ended = false
  let rows = 0
  let complete = false
  const end = (error: unknown, complete: boolean) => {
    if (ended) return
    ended = true
    onEnd(error, complete)
  }
  return {
    /** Rows of the result, once its blocks were read to the end; undefined before. */
    get deliveredRows() {
      return complete ? rows : undefined
    },
    get queryId() {
      return stream.queryId
    },
    columns: () => stream.columns(),
    get progress() {
      return stream.progress
    },
    get profileInfo() {
      return stream.profileInfo
    },
    get totals() {
      return stream.totals
    },
    get extremes() {
      return stream.extremes
    },
    recycleBlocks: stream.recycleBlocks ? () => stream.recycleBlocks?.() : undefined,
    async cancel() {
      try {
        await stream.cancel()
      } finally {
        end(undefined, false)
      }
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<NativeBlock, void, undefined> {
      try {
        for await (const block of stream) {
          rows += block.rows
          yield block
        }
        complete = true
      } catch (error) {
        end(error, false)
        throw error
      } finally {
        end(undefined, complete)
      }
    },
  }
}
