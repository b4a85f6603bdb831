import { ClickHouseError, decodeUtf8 } from '@clickwire/protocol'

/*
 * How a server reports an exception that happens after the response started (status 200
 * and part of the body already sent). Read from ClickHouse's HTTP handler and response
 * buffer (src/Server/HTTPHandler.cpp, src/Server/HTTP/WriteBufferFromHTTPServerResponse.cpp
 * and, later, HTTP1/HTTP1ServerResponse.cpp) and checked live on 18.16:
 *
 * - up to 24.x: the exception text (`Code: 395, e.displayText() = DB::Exception: ...` on
 *   18.16, `Code: 395. DB::Exception: ... (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version
 *   ...)` later) and a newline are appended to the body, which then ends normally;
 * - later: `__exception__\r\n`, the text and a newline, then the connection is closed
 *   without the last chunk, so the body ends abnormally;
 * - 25.11+: the response names a random tag in `X-ClickHouse-Exception-Tag`, and the body
 *   gets `\r\n__exception__\r\n<tag>\r\n<text>\n<length> <tag>\r\n__exception__\r\n`, again
 *   without the last chunk.
 *
 * Whatever was flushed before is whole output (complete Native blocks, complete rows), so
 * in a Native stream these bytes start at a block boundary.
 */

const marker = '__exception__'
const textPrefix = 'Code: '

/** Longest exception trailer collected before the bytes are taken for data after all. */
export const maxTrailerBytes = 1 << 20

/** Whether the bytes at a block boundary start an exception: `no`, `yes`, or `more` bytes needed. */
export type TrailerStart = 'no' | 'yes' | 'more'

function matchLiteral(bytes: Uint8Array, start: number, end: number, literal: string): TrailerStart {
  const available = end - start
  const n = Math.min(available, literal.length)
  for (let i = 0; i < n; i++) if (bytes[start + i] !== literal.charCodeAt(i)) return 'no'
  return available >= literal.length ? 'yes' : 'more'
}

/** `Code: ` then digits then `,` or `.` then a space. */
function matchCodeText(bytes: Uint8Array, start: number, end: number): TrailerStart {
  const head = matchLiteral(bytes, start, end, textPrefix)
  if (head !== 'yes') return head
  let at = start + textPrefix.length
  let digits = 0
  while (at < end && bytes[at]! >= 0x30 && bytes[at]! <= 0x39 && digits < 10) {
    at++
    digits++
  }
  if (at === end) return 'more'
  if (digits === 0 || (bytes[at] !== 0x2c && bytes[at] !== 0x2e)) return 'no'
  if (at + 1 === end) return 'more'
  return bytes[at + 1] === 0x20 ? 'yes' : 'no'
}

/**
 * Whether `bytes[start, end)`, taken at a boundary of the output (a Native block boundary,
 * or the start of the body), begin an exception in any of the three forms. With `tag`
 * (from the response header) only the tagged form and the old text form are accepted.
 */
export function trailerStart(
  bytes: Uint8Array,
  start: number,
  end: number,
  tag: string | undefined,
): TrailerStart {
  const candidates: TrailerStart[] = [matchCodeText(bytes, start, end)]
  if (tag) candidates.push(matchLiteral(bytes, start, end, `\r\n${marker}\r\n${tag}\r\n`))
  else {
    candidates.push(matchLiteral(bytes, start, end, `${marker}\r\n`))
    candidates.push(matchLiteral(bytes, start, end, `\r\n${marker}\r\n`))
  }
  if (candidates.includes('yes')) return 'yes'
  return candidates.includes('more') ? 'more' : 'no'
}

/** The exception text inside a trailer (the bytes from where {@link trailerStart} said `yes`). */
export function trailerText(bytes: Uint8Array, tag: string | undefined): string {
  let text = decodeUtf8(bytes)
  if (tag) {
    const head = `\r\n${marker}\r\n${tag}\r\n`
    if (text.startsWith(head)) {
      text = text.slice(head.length)
      // `<text>\n<length> <tag>\r\n__exception__\r\n`: the length counts the text's bytes.
      const tail = new RegExp(`\\n(\\d+) ${tag}\\r\\n${marker}\\r\\n?$`).exec(text)
      if (tail) text = text.slice(0, tail.index + 1)
    }
  } else {
    if (text.startsWith('\r\n')) text = text.slice(2)
    if (text.startsWith(`${marker}\r\n`)) {
      text = text.slice(marker.length + 2)
      // A tagged trailer whose header we did not get (a proxy dropped it).
      const tagged = /^([0-9A-Za-z]{8,64})\r\n/.exec(text)
      if (tagged) {
        text = text.slice(tagged[0].length)
        const tail = new RegExp(`\\n(\\d+) ${tagged[1]}\\r\\n${marker}\\r\\n?$`).exec(text)
        if (tail) text = text.slice(0, tail.index + 1)
      }
    }
  }
  return text.replace(/\s+$/, '')
}

/**
 * A ClickHouseError from exception text: parsed like the native protocol's exceptions
 * (same message, code and code name), or, for text that is not of the `Code: N` form, the
 * whole text as the message.
 */
export function serverError(text: string, queryId: string | undefined, fallbackCode = 0): ClickHouseError {
  const parsed = ClickHouseError.fromText(text, queryId)
  if (parsed) return parsed
  const code = /^Code: (\d+)/.exec(text)
  const type = /(?:= |\. )([A-Za-z_][\w:]*Exception)\b/.exec(text)?.[1] ?? 'DB::Exception'
  return new ClickHouseError({
    code: code ? Number(code[1]) : fallbackCode,
    type,
    message: text,
    queryId,
  })
}

const latin1 = new TextDecoder('latin1')

/**
 * Where an exception trailer starts in the last bytes of a body whose format has no
 * boundaries we can see (raw mode), or -1. The tagged and `__exception__` forms may follow
 * data directly; the old text form must read like an exception and run to the end of a
 * body that ended normally.
 */
export function findTrailer(
  bytes: Uint8Array,
  options: { tag: string | undefined; abnormalEnd: boolean },
): number {
  // One char per byte, so string positions are byte positions.
  const text = latin1.decode(bytes)
  if (options.tag) {
    const at = text.indexOf(`\r\n${marker}\r\n${options.tag}\r\n`)
    if (at >= 0) return at
  }
  if (options.abnormalEnd) {
    const at = text.indexOf(`${marker}\r\n`)
    if (at >= 0) return at >= 2 && text.startsWith('\r\n', at - 2) ? at - 2 : at
    return -1
  }
  // The text form may follow any output (Native blocks end in arbitrary bytes), so it must
  // look exactly like an exception and run to the end of a body that ends with a newline.
  if (!text.endsWith('\n')) return -1
  const pattern = /Code: \d+(?:, e\.displayText\(\) = |\. )[A-Za-z_][\w:]*Exception\b/g
  const match = pattern.exec(text)
  if (match) return match.index
  return -1
}
