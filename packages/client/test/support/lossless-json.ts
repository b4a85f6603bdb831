/**
 * A JSON parser that loses nothing of the server's text: numbers stay as their digits
 * (`JsonNumber`) and objects keep their keys in order (`JsonObject`), so an Int256 or a
 * Decimal256 the server prints unquoted, and Map keys like "10", "2", compare exactly.
 */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A JSON object as its entries, in the server's order. */
export class JsonObject {
  constructor(readonly entries: readonly (readonly [string, JsonNode])[]) {}

  get(key: string): JsonNode | undefined {
    return this.entries.find(([name]) => name === key)?.[1]
  }
}

export type JsonNode = JsonNumber | JsonObject | string | boolean | null | JsonNode[]

/** Parses one JSON text. */
export function parseLossless(text: string): JsonNode {
  let at = 0
  const fail = (): never => {
    throw new Error(`bad JSON at ${at}: ${text.slice(at, at + 40)}`)
  }
  const space = () => {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++
  }
  const value = (): JsonNode => {
    space()
    const char = text[at]
    if (char === '{') {
      at++
      const entries: [string, JsonNode][] = []
      space()
      if (text[at] === '}') {
        at++
        return new JsonObject(entries)
      }
      for (;;) {
        space()
        const key = value()
        if (typeof key !== 'string') fail()
        space()
        if (text[at++] !== ':') fail()
        entries.push([key as string, value()])
        space()
        const next = text[at++]
        if (next === '}') return new JsonObject(entries)
        if (next !== ',') fail()
      }
    }
    if (char === '[') {
      at++
      const items: JsonNode[] = []
      space()
      if (text[at] === ']') {
        at++
        return items
      }
      for (;;) {
        items.push(value())
        space()
        const next = text[at++]
        if (next === ']') return items
        if (next !== ',') fail()
      }
    }
    if (char === '"') {
      const start = at
      at++
      while (text[at] !== '"') {
        if (at >= text.length) fail()
        at += text[at] === '\\' ? 2 : 1
      }
      at++
      return JSON.parse(text.slice(start, at)) as string
    }
    for (const [word, result] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length
        return result
      }
    }
    // QBit vectors print inf and nan bare, whatever output_format_json_quote_denormals says.
    const match = /^(-?[0-9][0-9.eE+-]*|-?inf|-?nan)/.exec(text.slice(at, at + 400))
    if (!match) return fail()
    at += match[0].length
    return new JsonNumber(match[0])
  }
  const result = value()
  space()
  if (at !== text.length) fail()
  return result
}
