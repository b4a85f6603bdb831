import { inspect } from 'node:util'

/**
 * Every way an error (or any object) can end up printed: String(), util.inspect with
 * hidden properties, JSON.stringify (plain, and as structured loggers do it), the stack,
 * and the same for each `cause` (and AggregateError member) down the chain. A secret must
 * appear in none of them.
 */
export function everythingAbout(value: unknown, depth = 0): string {
  if (depth > 8) return ''
  const parts: string[] = []
  try {
    parts.push(String(value))
  } catch (error) {
    parts.push(`String() threw ${String(error)}`)
  }
  parts.push(inspect(value, { depth: 10, showHidden: true, getters: true }))
  try {
    parts.push(JSON.stringify(value) ?? '')
  } catch {
    // Cyclic: loggerJson below cuts the cycles.
  }
  parts.push(loggerJson(value))
  if (typeof value === 'object' && value !== null) {
    const error = value as { stack?: unknown; cause?: unknown; errors?: unknown }
    if (typeof error.stack === 'string') parts.push(error.stack)
    if (error.cause !== undefined) parts.push(everythingAbout(error.cause, depth + 1))
    if (Array.isArray(error.errors))
      for (const each of error.errors) parts.push(everythingAbout(each, depth + 1))
  }
  return parts.join('\n')
}

/**
 * JSON the way structured loggers write objects (pino's safe-stable-stringify and the
 * like): every enumerable property, cycles cut instead of throwing, bigints as text. A
 * password reachable from an object a user may log shows up here.
 */
export function loggerJson(value: unknown): string {
  const seen = new WeakSet<object>()
  return (
    JSON.stringify(value, (_key, each: unknown) => {
      if (typeof each === 'bigint') return each.toString()
      if (typeof each === 'object' && each !== null) {
        if (seen.has(each)) return '[Circular]'
        seen.add(each)
        if (each instanceof Error) {
          return { ...each, name: each.name, message: each.message, stack: each.stack, cause: each.cause }
        }
      }
      return each
    }) ?? ''
  )
}
