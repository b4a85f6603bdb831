/*
 * The `redactParams` option: {name:Type} values kept out of error messages, and so out of
 * log entries and spans, which carry the messages. The server quotes values in its errors
 * in several forms: 18.16 quotes the query the client substituted them into (a syntax
 * error shows up to 160 bytes of it from where parsing failed, so a literal may be cut),
 * 26.x quotes the analyzed query (`in scope SELECT 'it\'s'`) and unparsable values as
 * they are. So each value is looked for both ways: inside every single-quoted literal of
 * the message, unescaped (whatever escapes the server used), and as plain text in the
 * escaped forms it can take. Each found place becomes `{name:***}`.
 */

/** What a value's place in a message becomes. */
export function parameterMarker(name: string): string {
  return `{${name}:***}`
}

/** The texts a value is made of: a string, a number's digits, and the leaves of arrays, maps and objects. */
function leafTexts(value: unknown, out: string[], depth = 0): void {
  if (value === null || value === undefined || depth > 32) return
  if (typeof value === 'string') out.push(value)
  else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    out.push(String(value))
  else if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return
    const iso = value.toISOString()
    out.push(iso, iso.slice(0, 19).replace('T', ' '), iso.slice(0, 10))
  } else if (value instanceof Uint8Array) out.push(new TextDecoder().decode(value))
  else if (value instanceof Map) {
    for (const [key, item] of value) {
      leafTexts(key, out, depth + 1)
      leafTexts(item, out, depth + 1)
    }
  } else if (typeof value === 'object' && Symbol.iterator in value) {
    for (const item of value as Iterable<unknown>) leafTexts(item, out, depth + 1)
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key)
      leafTexts(item, out, depth + 1)
    }
  }
}

const quoteEscapes: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\t': '\\t',
  '\r': '\\r',
  '\0': '\\0',
  '\b': '\\b',
  '\f': '\\f',
}

/** The plain-text forms of a value's text: as is, escaped as in a literal or a TSV field, JSON, URL. */
function plainForms(text: string): string[] {
  const forms = new Set([text])
  forms.add(text.replace(/[\\'\n\t\r\0\b\f]/g, (char) => quoteEscapes[char]!))
  forms.add(text.replace(/[\\\n\t]/g, (char) => quoteEscapes[char]!))
  forms.add(JSON.stringify(text).slice(1, -1))
  forms.add(encodeURIComponent(text))
  return [...forms].filter((form) => form !== '')
}

const unescapes: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  b: '\b',
  f: '\f',
  a: '\x07',
  v: '\v',
  e: '\x1b',
}

/**
 * A single-quoted literal's body unescaped leniently (any escape the server may print),
 * with where each character's escape starts in `raw`.
 */
function unescapeBody(raw: string): { text: string; starts: number[] } {
  let text = ''
  const starts: number[] = []
  for (let at = 0; at < raw.length; ) {
    starts.push(at)
    const char = raw[at]!
    if (char === '\\' && at + 1 < raw.length) {
      const next = raw[at + 1]!
      const hex = next === 'x' ? /^[0-9a-fA-F]{2}/.exec(raw.slice(at + 2, at + 4)) : null
      if (hex) {
        text += String.fromCharCode(Number.parseInt(hex[0], 16))
        at += 4
      } else {
        text += unescapes[next] ?? next
        at += 2
      }
    } else if (char === "'" && raw[at + 1] === "'") {
      text += "'"
      at += 2
    } else {
      text += char
      at += 1
    }
  }
  return { text, starts }
}

const wordChar = /[\p{L}\p{N}_]/u

/** Where a short form stands alone: not inside a longer word or number. */
function standsAlone(text: string, start: number, end: number): boolean {
  return !(start > 0 && wordChar.test(text[start - 1]!)) && !(end < text.length && wordChar.test(text[end]!))
}

/**
 * `text` with every place of a parameter value in it replaced by `{name:***}`.
 *
 * - Inside a single-quoted literal: the whole literal when its unescaped body holds a value
 *   (or is part of one), and in a literal the text cuts off (no closing quote), the part
 *   that begins like a value (from 3 characters, or the whole of a shorter one).
 * - As plain text: each escaped form of a value; a form shorter than 4 characters only
 *   where it stands alone (a `7` inside `1970` is not masked).
 */
export function redactParameterValues(text: string, params: Readonly<Record<string, unknown>>): string {
  if (text === '') return text
  const values: { name: string; text: string }[] = []
  for (const [name, value] of Object.entries(params)) {
    const texts: string[] = []
    leafTexts(value, texts)
    for (const each of texts) if (each !== '') values.push({ name, text: each })
  }
  if (values.length === 0) return text
  const spans: { start: number; end: number; name: string }[] = []
  // A cut text may end inside an escape: a lone backslash at the end belongs to the literal.
  const literal = /'((?:[^'\\]|\\[\s\S]|''|\\$)*)('|$)/g
  for (let match = literal.exec(text); match; match = literal.exec(text)) {
    const body = match[1]!
    const closed = match[2] === "'"
    const { text: unescaped, starts } = unescapeBody(body)
    if (unescaped === '') continue
    const bodyStart = match.index + 1
    for (const value of values) {
      if (unescaped.includes(value.text) || value.text.includes(unescaped)) {
        spans.push({ start: match.index, end: match.index + match[0].length, name: value.name })
        break
      }
      if (!closed) {
        let same = 0
        while (same < unescaped.length && unescaped[same] === value.text[same]) same++
        // One or two characters may be a word after an apostrophe (`doesn't`), not a value.
        if (same >= Math.min(value.text.length, 3)) {
          const end = same < starts.length ? bodyStart + starts[same]! : match.index + match[0].length
          spans.push({ start: match.index, end, name: value.name })
          break
        }
      }
    }
    // An unclosed literal runs to the end: values after it are looked for as plain text.
    if (!closed) literal.lastIndex = match.index + 1
  }
  for (const value of values) {
    for (const form of plainForms(value.text)) {
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
        if (form.length >= 4 || standsAlone(text, at, at + form.length))
          spans.push({ start: at, end: at + form.length, name: value.name })
      }
    }
  }
  if (spans.length === 0) return text
  spans.sort((a, b) => a.start - b.start || b.end - a.end)
  let out = ''
  let at = 0
  for (const span of spans) {
    if (span.end <= at) continue
    if (span.start >= at) out += text.slice(at, span.start) + parameterMarker(span.name)
    at = span.end
  }
  return out + text.slice(at)
}

/**
 * Redacts the values of `params` in an error in place: its message and stack, and those of
 * the errors it nests (a server's nested exception, a cause), so that whoever logs the
 * error the caller catches sees no value either.
 */
export function redactErrorParameters(error: unknown, params: Readonly<Record<string, unknown>>): void {
  const seen = new Set<unknown>()
  for (let current = error; typeof current === 'object' && current !== null && !seen.has(current); ) {
    seen.add(current)
    const record = current as { message?: unknown; stack?: unknown; nested?: unknown; cause?: unknown }
    if (typeof record.message === 'string') {
      const message = record.message
      const redacted = redactParameterValues(message, params)
      if (redacted !== message) {
        try {
          record.message = redacted
          if (typeof record.stack === 'string')
            record.stack = redactParameterValues(record.stack.split(message).join(redacted), params)
        } catch {
          // A frozen error keeps its text: nothing else can be done with it.
        }
      }
    }
    if (record.nested !== undefined) redactErrorParameters(record.nested, params)
    current = record.cause
  }
}
