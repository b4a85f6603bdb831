// `redactParams: true` keeps {name:Type} values out of errors, log entries and spans, on both
// transports and every generation: 18.16 quotes the query the client substituted the values
// into (a syntax error shows up to 160 bytes of it, so a long value is cut mid-literal),
// 26.x quotes the analyzed query with the values in it, and both quote a string that does
// not parse. The value holds quotes, backslashes, control characters, newlines and
// non-ASCII text, so it appears escaped in some messages and raw in others; none of its
// forms, nor any 5-character piece of them, may reach a log entry, a span or the error the
// caller catches. Without the option the same messages show the value (the control).
import { inspect } from 'node:util'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { afterAll, describe, expect, it } from 'vitest'
import { ClickHouseError, type LogContext, type Logger, sql } from '../src/index.js'
import { clientFor, server, thrown, transports } from './support/transports.js'

const legacy = server.generation === 'legacy'
const value = 'it\'s "q" \\ \n\t ü 🔑 \u0001 tok-7f3a9c-secret'
/** Longer than the 160 bytes of a query 18.16 shows in a syntax error. */
const long = `long-${'9c'.repeat(120)}-tail-secret`
const escaped = value.replace(
  /[\\'\n\t]/g,
  (char) => ({ '\\': '\\\\', "'": "\\'", '\n': '\\n', '\t': '\\t' })[char]!,
)

const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const tracer = provider.getTracer('clickwire-redaction-test')
afterAll(() => provider.shutdown())

/** A logger that keeps every message and context value as text. */
function capturing(): Logger & { texts: string[] } {
  const texts: string[] = []
  const keep = (message: string, context: LogContext) => {
    texts.push(message, ...Object.values(context).map(String))
  }
  return { texts, debug: keep, info: keep, warn: keep, error: keep }
}

/** Every text of the finished spans: attributes, events (recorded exceptions) and status. */
function spanTexts(): string[] {
  return exporter
    .getFinishedSpans()
    .flatMap((span) => [
      span.name,
      ...Object.values(span.attributes).map(String),
      ...span.events.flatMap((event) => [event.name, ...Object.values(event.attributes ?? {}).map(String)]),
      span.status.message ?? '',
    ])
}

/** Every 5-character piece of a text (by code point). */
function pieces(text: string): string[] {
  const chars = [...text]
  return chars.slice(0, chars.length - 4).map((_, i) => chars.slice(i, i + 5).join(''))
}

function expectNoValue(texts: readonly string[]): void {
  const all = texts.join('\n')
  for (const secret of [value, long]) {
    expect(all).not.toContain(secret)
    for (const piece of pieces(secret)) expect(all).not.toContain(piece)
  }
  for (const piece of pieces(escaped)) expect(all).not.toContain(piece)
  for (const piece of pieces(JSON.stringify(value).slice(1, -1))) expect(all).not.toContain(piece)
}

describe.each(transports)('redactParams over %s', (transport) => {
  it(`keeps parameter values out of errors, log entries and spans (${legacy ? '18.16 quotes the substituted query' : '26.x quotes the analyzed query'})`, async () => {
    exporter.reset()
    const logger = capturing()
    await using ch = clientFor(transport, {
      redactParams: true,
      logger,
      logLevel: 'debug',
      tracing: { tracer },
    })
    const errors: ClickHouseError[] = []
    const fail = async (run: () => Promise<unknown>, code: number) => {
      const error = (await thrown(run)) as ClickHouseError
      expect(ClickHouseError.isInstance(error), String(error)).toBe(true)
      expect(error.code).toBe(code)
      errors.push(error)
      return error
    }
    const rows = async (text: string, params: Record<string, unknown>) =>
      (await ch.query(text, { params })).rows()

    // A syntax error before the value: 18.16 quotes the query from there on.
    const syntax = await fail(() => rows('SELECT ) {p:String}', { p: value }), 62)
    if (legacy) expect(syntax.message).toMatch(/^Syntax error: failed at position 8: \) \{p:\*\*\*\}/)
    // The same with a value longer than what 18.16 shows: the literal is cut.
    const cut = await fail(() => rows('SELECT ) {long:String}', { long }), 62)
    if (legacy) expect(cut.message).toMatch(/^Syntax error: failed at position 8: \) \{long:\*\*\*\}/)
    // A string that does not parse: both generations quote it.
    const parse = await fail(() => rows('SELECT toUInt8({p:String}) AS u', { p: value }), 6)
    expect(parse.message).toMatch(/^Cannot parse string \{p:\*\*\*\} as UInt8/)
    // An unknown table: 26.x quotes the analyzed query, every value in it.
    await fail(
      () =>
        rows('SELECT {p:String}, {n:UInt64}, {a:Array(String)} FROM redaction_no_such_table', {
          p: value,
          n: 918273645,
          a: [long, value],
        }),
      legacy ? 60 : 60,
    )
    // A sql`` fragment's values are the call's parameters too.
    const fragment = await fail(async () => (await ch.query(sql`SELECT toUInt8(${value}) AS u`)).rows(), 6)
    expect(fragment.message).toMatch(/^Cannot parse string \{\w+:\*\*\*\} as UInt8/)
    // A command's error, and a call that works.
    await fail(() => ch.command('SELECT toUInt8({p:String})', { params: { p: value } }), 6)
    expect(await rows('SELECT length({p:String}) AS n', { p: value })).toEqual([
      { n: BigInt(new TextEncoder().encode(value).length) },
    ])

    const thrownTexts = errors.flatMap((error) => [
      error.message,
      String(error.stack),
      inspect(error, { depth: 4 }),
    ])
    expectNoValue(thrownTexts)
    expect(logger.texts.filter((text) => text.includes('failed')).length).toBeGreaterThanOrEqual(
      errors.length,
    )
    expectNoValue(logger.texts)
    expect(exporter.getFinishedSpans().length).toBe(errors.length + 1)
    expectNoValue(spanTexts())
    // The error kinds and codes stay: only the values are masked.
    expect(spanTexts()).toContain('ClickHouseError')
  })

  it('without the option the server quotes the value (the control: the test above can fail)', async () => {
    await using ch = clientFor(transport)
    const error = (await thrown(async () =>
      (await ch.query('SELECT toUInt8({p:String}) AS u', { params: { p: value } })).rows(),
    )) as ClickHouseError
    expect(error.code).toBe(6)
    expect(error.message).toContain(`'${escaped}'`)
  })
})
