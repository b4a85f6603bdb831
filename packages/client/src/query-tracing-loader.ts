import { UsageError } from '@clickwire/protocol'
import type { QueryTracer, SpanStart, TracedCall, TracingOption } from './query-tracing.js'

/** What a call needs of a tracer: its span, started. */
export type CallTracer = Pick<QueryTracer, 'start'>

/**
 * The tracer of a client with `tracing` on. Its code loads with the first call, through
 * `import()`: a client without tracing (most of them, and every browser page that does not
 * ask for it) never carries it. The option itself is checked here, at createClient.
 */
export function lazyTracer(
  option: Exclude<TracingOption, false>,
  server: { readonly address: string; readonly port: number; readonly database: string | undefined },
): CallTracer {
  if (
    typeof option === 'object' &&
    option.tracer !== undefined &&
    typeof option.tracer.startSpan !== 'function'
  )
    throw new UsageError('tracing.tracer must be an OpenTelemetry Tracer (with startSpan)')
  let made: Promise<QueryTracer> | undefined
  return {
    start: async (call: SpanStart): Promise<TracedCall> => {
      made ??= import('./query-tracing.js').then(({ QueryTracer }) => new QueryTracer(option, server))
      return (await made).start(call)
    },
  }
}
