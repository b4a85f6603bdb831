/**
 * How a JSON value's dotted paths become nested plain objects, shared by the JSON column
 * and by JSON values read in RowBinary (Dynamic's shared variant, JSON shared data).
 */
/** Sets `value` at a dotted path, making the intermediate objects. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  let node = target
  let start = 0
  for (;;) {
    const dot = path.indexOf('.', start)
    const key = dot < 0 ? path.slice(start) : path.slice(start, dot)
    if (dot < 0) {
      assign(node, key, value)
      return
    }
    // Own keys only: `__proto__` or `constructor` must never reach a prototype.
    let next = Object.hasOwn(node, key) ? node[key] : undefined
    if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      // A value and an object at the same path cannot both be shown: the object wins.
      next = {}
      assign(node, key, next)
    }
    node = next as Record<string, unknown>
    start = dot + 1
  }
}

function assign(node: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true })
  else node[key] = value
}
