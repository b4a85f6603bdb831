// OpenTelemetry spans of queries and inserts (`tracing`), recorded by the SDK's in-memory
// exporter, and their trace context propagated to the server: in the native Query packet's
// ClientInfo (revision >= 54442) or as `traceparent` over HTTP. On the modern server the
// server's own spans (system.opentelemetry_span_log) join the client's trace; 18.16
// (revision 54412, no OpenTelemetry) receives no context over native and ignores the
// header over HTTP, and everything else works the same.
import { trace } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { readLog } from './support/server-logs.js'
import { clientFor, server, transports, uniqueTable } from './support/transports.js'

const modern = server.generation === 'modern'
const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const tracer = provider.getTracer('clickwire-test')
/** OpenTelemetry's SpanKind.CLIENT and SpanStatusCode.ERROR / UNSET. */
const client = 2
const error = 2
const unset = 0

beforeEach(() => exporter.reset())
afterAll(() => provider.shutdown())

/** A trace id as the server's UUID column prints it. */
function asUuid(traceId: string): string {
  return `${traceId.slice(0, 8)}-${traceId.slice(8, 12)}-${traceId.slice(12, 16)}-${traceId.slice(16, 20)}-${traceId.slice(20)}`
}

/**
 * Checks that the server's spans continue the client span `spanId` of trace `traceId`
 * (read until they are there: readLog waits generously, a loaded machine writes them late),
 * or skips the test, saying why, on a server that keeps no span log at all.
 */
async function expectServerSpans(traceId: string, spanId: string, skip: (note: string) => void) {
  const spans = await readLog(
    async (ch) => {
      const rs = await ch.query<{ n: bigint }>(
        'SELECT count() AS n FROM system.opentelemetry_span_log WHERE trace_id = toUUID({trace:String}) AND parent_span_id = {span:UInt64}',
        { params: { trace: asUuid(traceId), span: BigInt(`0x${spanId}`) } },
      )
      return Number((await rs.rows())[0]?.n ?? 0n)
    },
    (n) => n > 0,
  )
  if (spans === 'absent') {
    skip(
      'the server keeps no system.opentelemetry_span_log (it never appeared within 30 s of a traced query)',
    )
    return
  }
  expect(spans.value).toBeGreaterThan(0)
}

describe.each(transports)('%s', (transport) => {
  const port = transport === 'native' ? server.ports.tcp : server.ports.http

  it('makes a client span per query, with the conventions’ attributes, and the server joins it', async ({
    skip,
  }) => {
    await using ch = clientFor(transport, { tracing: { tracer } })
    const queryId = `traced-${transport}-${Date.now()}`
    const rs = await ch.query('SELECT number FROM numbers(10)', { queryId })
    expect((await rs.rows()).length).toBe(10)
    const spans = exporter.getFinishedSpans()
    expect(spans.map((span) => span.name)).toEqual(['SELECT'])
    const span = spans[0]!
    expect(span.kind).toBe(client)
    expect(span.status.code).toBe(unset)
    expect(span.attributes).toMatchObject({
      'db.system.name': 'clickhouse',
      'db.operation.name': 'SELECT',
      'db.query.text': 'SELECT number FROM numbers(10)',
      'server.address': server.host,
      'server.port': port,
      'clickhouse.query_id': queryId,
      'db.response.returned_rows': 10,
    })
    const { traceId, spanId } = span.spanContext()
    // 18.16 has no OpenTelemetry: nothing reaches it over native, and it ignores traceparent.
    if (modern) await expectServerSpans(traceId, spanId, skip)
  })

  it('marks a failed query’s span as an error', async () => {
    await using ch = clientFor(transport, { tracing: { tracer } })
    await expect(ch.query('SELECT no_such_column')).rejects.toThrow(/no_such_column/)
    const [span] = exporter.getFinishedSpans()
    expect(span?.status.code).toBe(error)
    expect(span?.attributes).toMatchObject({
      'error.type': 'ClickHouseError',
      'db.response.status_code': '47',
    })
    expect(span?.events.map((event) => event.name)).toEqual(['exception'])
  })

  it('makes an INSERT span named by its table, with the rows written', async ({ skip }) => {
    const table = uniqueTable('traced')
    await using ch = clientFor(transport, { tracing: { tracer } })
    await ch.command(`CREATE TABLE ${table} (x UInt8) ENGINE = Memory`)
    try {
      exporter.reset()
      await ch.insert(table, { x: new Uint8Array([1, 2, 3, 4]) })
      const spans = exporter.getFinishedSpans()
      expect(spans.map((span) => span.name)).toEqual([`INSERT ${table}`])
      expect(spans[0]?.attributes).toMatchObject({
        'db.operation.name': 'INSERT',
        'db.collection.name': table,
        'clickhouse.written_rows': 4,
      })
      const { traceId, spanId } = spans[0]!.spanContext()
      if (modern) await expectServerSpans(traceId, spanId, skip)
    } finally {
      await ch.command(`DROP TABLE ${table}`)
    }
  })

  it('takes the global tracer with tracing: true (the API loaded on demand)', async () => {
    trace.setGlobalTracerProvider(provider)
    try {
      await using ch = clientFor(transport, { tracing: true })
      await ch.command('SELECT 1')
      expect(exporter.getFinishedSpans().map((span) => [span.name, span.instrumentationScope.name])).toEqual([
        ['SELECT', '@clickwire/client'],
      ])
    } finally {
      trace.disable()
    }
  })
})
