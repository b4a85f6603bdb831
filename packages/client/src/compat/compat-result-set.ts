import { Buffer } from 'node:buffer'
import { Readable } from 'node:stream'
import { UsageError } from '@clickwire/protocol'
import type { JsonHandling } from './compat-config.js'
import { compatError } from './compat-error.js'

/** One row of {@link CompatResultSet.stream}: its text, and its JSON on demand. */
export interface Row {
  readonly text: string
  json<T = unknown>(): T
}

/** Formats whose output is one row per line, which `stream()` hands out row by row. */
const lineFormats =
  /^(JSONEachRow|JSONStringsEachRow|JSONCompactEachRow|JSONCompactStringsEachRow|JSONCompactEachRowWithNames|JSONCompactEachRowWithNamesAndTypes|JSONCompactStringsEachRowWithNames|JSONCompactStringsEachRowWithNamesAndTypes|JSONLines|NDJSON|CSV|CSVWithNames|CSVWithNamesAndTypes|TabSeparated|TabSeparatedRaw|TabSeparatedWithNames|TabSeparatedWithNamesAndTypes|TSV|TSVRaw|TSVWithNames|TSVWithNamesAndTypes|CustomSeparated|CustomSeparatedWithNames|CustomSeparatedWithNamesAndTypes)$/
/** Line formats whose lines are JSON values. */
const jsonLineFormats = /^(JSON\w*EachRow\w*|JSONLines|NDJSON)$/
/** Formats whose whole output is one JSON document. */
const documentFormats =
  /^(JSON|JSONStrings|JSONCompact|JSONCompactStrings|JSONColumnsWithMetadata|JSONObjectEachRow|JSONColumns|JSONCompactColumns)$/

/** Where a result's text comes from: the server's bytes (HTTP) or the drop-in's own writing (native). */
export interface ResultSource {
  readonly chunks: AsyncIterable<Uint8Array | string>
  cancel(): Promise<void>
}

/**
 * A query's result as @clickhouse/client gives it: `text()`, `json()`, `stream()` (a Node
 * Readable of row batches), `query_id`, `response_headers`, `close()`. Read it once.
 */
export class CompatResultSet<Format extends string = string> {
  #consumed = false

  constructor(
    private readonly source: ResultSource,
    readonly format: Format,
    readonly query_id: string,
    readonly response_headers: Readonly<Record<string, string>>,
    private readonly jsonHandling: JsonHandling,
  ) {}

  /** The source's chunks, read once, its failures as @clickhouse/client's errors. */
  #chunks(method: string): AsyncIterable<Uint8Array | string> {
    if (this.#consumed) throw new UsageError(`${method}: the result was already read (read a result once)`)
    this.#consumed = true
    const chunks = this.source.chunks
    return (async function* () {
      try {
        yield* chunks
      } catch (error) {
        throw compatError(error)
      }
    })()
  }

  #take(method: string): AsyncIterable<string> {
    const chunks = this.#chunks(method)
    return (async function* () {
      const decoder = new TextDecoder()
      for await (const chunk of chunks) {
        const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
        if (text) yield text
      }
      const rest = decoder.decode()
      if (rest) yield rest
    })()
  }

  /** The whole result as text, in its format. */
  async text(): Promise<string> {
    let text = ''
    for await (const chunk of this.#take('text()')) text += chunk
    return text
  }

  /**
   * The result parsed: for one-document formats (JSON, JSONCompact, JSONObjectEachRow) the
   * document, for row-per-line JSON formats (JSONEachRow, ...) the array of rows.
   */
  // biome-ignore lint/suspicious/noExplicitAny: as in @clickhouse/client, the shape depends on the format (rows or a document), which the caller names with T
  async json<T = unknown>(): Promise<any> {
    if (jsonLineFormats.test(this.format)) {
      const rows: T[] = []
      for await (const batch of this.#lines('json()'))
        for (const line of batch) rows.push(this.jsonHandling.parse(line) as T)
      return rows
    }
    if (documentFormats.test(this.format)) return this.jsonHandling.parse(await this.text())
    throw new UsageError(`json(): the ${this.format} format is not JSON; read it with text() or stream()`)
  }

  /**
   * The result's lines, a batch per chunk. Bytes are cut at their last newline before they
   * are decoded (a newline byte is never inside a UTF-8 character), so each batch is one
   * decode and one split: decoding every chunk as a stream first took a third of json().
   */
  async *#lines(method: string): AsyncGenerator<string[]> {
    let pendingBytes: Buffer[] = []
    let pendingText = ''
    const takeBytes = (upTo?: Buffer): string => {
      const parts = upTo ? [...pendingBytes, upTo] : pendingBytes
      pendingBytes = []
      return (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8')
    }
    for await (const chunk of this.#chunks(method)) {
      if (typeof chunk === 'string') {
        // Text after bytes: the bytes come first in the line.
        if (pendingBytes.length > 0) pendingText += takeBytes()
        pendingText += chunk
        const end = pendingText.lastIndexOf('\n')
        if (end < 0) continue
        const lines = pendingText.slice(0, end).split('\n')
        pendingText = pendingText.slice(end + 1)
        yield lines
        continue
      }
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      const end = bytes.lastIndexOf(0x0a)
      if (end < 0) {
        if (bytes.length > 0) pendingBytes.push(bytes)
        continue
      }
      const text = pendingText + takeBytes(bytes.subarray(0, end))
      pendingText = ''
      if (end + 1 < bytes.length) pendingBytes.push(bytes.subarray(end + 1))
      yield text.split('\n')
    }
    if (pendingBytes.length > 0) pendingText += takeBytes()
    if (pendingText) yield [pendingText]
  }

  /**
   * The rows as they arrive: a Node Readable (object mode) of arrays of {@link Row}, one
   * array per chunk received. Only for formats of one row per line (JSONEachRow, CSV, TSV, ...).
   */
  stream(): Readable {
    if (!lineFormats.test(this.format))
      throw new UsageError(
        `stream(): the ${this.format} format is one document, not rows: read it with json() or text(), or ask for JSONEachRow`,
      )
    const parse = this.jsonHandling.parse
    const lines = this.#lines('stream()')
    const rows = (async function* () {
      for await (const batch of lines) {
        yield batch.map(
          (text): Row => ({
            text,
            json: <T>() => parse(text) as T,
          }),
        )
      }
    })()
    const stream = Readable.from(rows, { objectMode: true })
    stream.once('close', () => {
      if (!stream.readableEnded) void this.source.cancel()
    })
    return stream
  }

  /** Stops reading: the query is cancelled on the server. */
  close(): void {
    this.#consumed = true
    void this.source.cancel()
  }
}
