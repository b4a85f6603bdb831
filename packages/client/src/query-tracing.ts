import { redactSecrets, type TraceContext, UsageError } from '@clickwire/protocol'
import type { QuerySummary } from './query-summary.js'

/*
 * OpenTelemetry spans for queries and inserts, without a dependency on OpenTelemetry: the
 * types below are the few members of `@opentelemetry/api` the client calls (structural, so
 * a Tracer from any 1.x API fits, and the package's types need no OpenTelemetry installed).
 * The API package itself is imported only when `tracing: true` asks for the global tracer,
 * through an import() of a computed name, so bundlers never pull it into a page.
 */

/** The span members the client uses (`@opentelemetry/api` Span). */
export interface SpanLike {
  spanContext(): { traceId: string; spanId: string; traceFlags: number; traceState?: { serialize(): string } }
  setAttribute(key: string, value: string | number | boolean): unknown
  setStatus(status: { code: number; message?: string }): unknown
  recordException(exception: Error): unknown
  end(): void
}

/** The tracer member the client uses (`@opentelemetry/api` Tracer). */
export interface TracerLike {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: Record<string, string | number | boolean> },
  ): SpanLike
}

/**
 * `tracing` option: `true` uses the global tracer provider's tracer (`@opentelemetry/api`
 * must be installed, Node or a bundler that resolves it at run time); `{ tracer }` uses the
 * tracer given (works everywhere, loads nothing). `queryText: false` leaves `db.query.text`
 * out of the spans.
 */
export type TracingOption =
  | boolean
  | { readonly tracer?: TracerLike | undefined; readonly queryText?: boolean | undefined }

/** OpenTelemetry's SpanKind.CLIENT and SpanStatusCode.ERROR (stable numbers of the API). */
const spanKindClient = 2
const statusError = 2
const apiModule = '@opentelemetry/api'
let globalTracer: Promise<TracerLike> | undefined

function loadGlobalTracer(): Promise<TracerLike> {
  globalTracer ??= import(/* @vite-ignore */ /* webpackIgnore: true */ apiModule).then(
    (api: { trace: { getTracer(name: string): TracerLike } }) => api.trace.getTracer('@clickwire/client'),
    (cause: unknown) => {
      globalTracer = undefined
      throw new UsageError(
        `tracing: true needs @opentelemetry/api (an optional peer dependency of @clickwire/client: install it, or pass tracing: { tracer }): ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      )
    },
  )
  return globalTracer
}

/** What the client knows of a call when its span starts. */
export interface SpanStart {
  /** `SELECT`, `INSERT`, `CREATE`, ... (the statement's first word). */
  readonly operation: string
  readonly queryText: string | undefined
  /** The table of an insert. */
  readonly collection?: string | undefined
  readonly queryId: string
}

/** Where spans go for one client; undefined when tracing is off. */
export class QueryTracer {
  readonly #option: Exclude<TracingOption, false>
  readonly #attributes: Record<string, string | number>

  constructor(
    option: Exclude<TracingOption, false>,
    server: { readonly address: string; readonly port: number; readonly database: string | undefined },
  ) {
    // The option was checked by lazyTracer (query-tracing-loader.ts), the one maker of tracers.
    this.#option = option
    this.#attributes = {
      'db.system.name': 'clickhouse',
      'server.address': server.address,
      'server.port': server.port,
    }
    if (server.database) this.#attributes['db.namespace'] = server.database
  }

  #tracer(): TracerLike | Promise<TracerLike> {
    const given = typeof this.#option === 'object' ? this.#option.tracer : undefined
    return given ?? loadGlobalTracer()
  }

  /** Starts the span of a call (a client span in the active context) and its trace context for the server. */
  async start(call: SpanStart): Promise<TracedCall> {
    const tracer = await this.#tracer()
    const attributes: Record<string, string | number | boolean> = {
      ...this.#attributes,
      'db.operation.name': call.operation,
      'clickhouse.query_id': call.queryId,
    }
    if (call.collection) attributes['db.collection.name'] = call.collection
    const withText = typeof this.#option !== 'object' || this.#option.queryText !== false
    if (withText && call.queryText !== undefined) attributes['db.query.text'] = redactSecrets(call.queryText)
    // Semantic conventions: `{operation} {collection}` when both are known.
    const name = call.collection ? `${call.operation} ${call.collection}` : call.operation
    return new TracedCall(tracer.startSpan(name, { kind: spanKindClient, attributes }))
  }
}

/** One call's span. */
export class TracedCall {
  constructor(readonly span: SpanLike) {}

  /** The W3C context the server's spans continue (ClientInfo over native, `traceparent` over HTTP). */
  get traceContext(): TraceContext {
    const context = this.span.spanContext()
    return {
      traceId: context.traceId,
      spanId: context.spanId,
      traceFlags: context.traceFlags,
      traceState: context.traceState?.serialize() ?? '',
    }
  }

  /** Ends the span: the summary's figures as attributes, or the error status. */
  end(error: unknown, summary: QuerySummary | undefined): void {
    const span = this.span
    if (summary) {
      span.setAttribute('db.response.returned_rows', summary.resultRows)
      span.setAttribute('clickhouse.read_rows', summary.readRows)
      span.setAttribute('clickhouse.read_bytes', summary.readBytes)
      span.setAttribute('clickhouse.written_rows', summary.writtenRows)
      span.setAttribute('clickhouse.written_bytes', summary.writtenBytes)
    }
    if (error !== undefined) {
      const failure = error instanceof Error ? error : new Error(String(error))
      const code = (failure as { code?: unknown }).code
      span.setAttribute('error.type', failure.name)
      if (typeof code === 'number') span.setAttribute('db.response.status_code', String(code))
      span.recordException(failure)
      span.setStatus({ code: statusError, message: failure.message })
    }
    span.end()
  }
}
