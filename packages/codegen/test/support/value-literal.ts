/**
 * A runtime value written as a TypeScript expression with the same type, so `tsc` can
 * check real query results against generated types: `1n`, `new Date(0)`,
 * `new Uint8Array([1])`, `new Map([["k", 1n]])`, arrays, plain objects. A value of any
 * other class is refused rather than guessed.
 */
export function valueLiteral(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined'
    case 'boolean':
      return String(value)
    case 'bigint':
      return `${value}n`
    case 'string':
      return JSON.stringify(value)
    case 'number':
      if (Number.isNaN(value)) return 'Number.NaN'
      if (!Number.isFinite(value)) return value > 0 ? 'Number.POSITIVE_INFINITY' : 'Number.NEGATIVE_INFINITY'
      return Object.is(value, -0) ? '-0' : String(value)
  }
  if (value === null) return 'null'
  if (value instanceof Date) return `new Date(${value.getTime()})`
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const typed = value as unknown as ArrayLike<number | bigint> & { constructor: { name: string } }
    return `new ${typed.constructor.name}([${Array.from(typed, valueLiteral).join(', ')}])`
  }
  if (Array.isArray(value)) return `[${value.map(valueLiteral).join(', ')}]`
  if (value instanceof Map) {
    return `new Map([${[...value].map(([k, v]) => `[${valueLiteral(k)}, ${valueLiteral(v)}]`).join(', ')}])`
  }
  const prototype = Object.getPrototypeOf(value)
  if (typeof value === 'object' && (prototype === Object.prototype || prototype === null)) {
    const fields = Object.entries(value as Record<string, unknown>).map(
      ([key, field]) => `${JSON.stringify(key)}: ${valueLiteral(field)}`,
    )
    return `{ ${fields.join(', ')} }`
  }
  throw new Error(`no literal for a ${prototype?.constructor?.name ?? typeof value}`)
}
