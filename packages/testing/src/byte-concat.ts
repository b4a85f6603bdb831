const encoder = new TextEncoder()

/** The parts back to back in one new array; strings are taken as UTF-8. */
export function concatBytes(...parts: readonly (Uint8Array | string)[]): Uint8Array {
  const bytes = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part))
  const out = new Uint8Array(bytes.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of bytes) {
    out.set(part, at)
    at += part.length
  }
  return out
}
