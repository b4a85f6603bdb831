import { describe, expect, it } from 'vitest'
import { StringInterner } from './text-decoding.js'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** One byte array holding `values` back to back, and each value's [start, end). */
function packed(values: readonly string[]): { bytes: Uint8Array; bounds: [number, number][] } {
  const parts = values.map((value) => encoder.encode(value))
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  const bounds: [number, number][] = []
  let offset = 0
  for (const part of parts) {
    bytes.set(part, offset)
    bounds.push([offset, offset + part.length])
    offset += part.length
  }
  return { bytes, bounds }
}

function decodeAll(values: readonly string[]): string[] {
  const { bytes, bounds } = packed(values)
  const interner = new StringInterner(bytes)
  return bounds.map(([start, end]) => interner.get(start, end))
}

describe('StringInterner', () => {
  it('decodes every value exactly, across many arrays sharing one cache', () => {
    // Random short ASCII values over a small alphabet: many repeats, many near-misses of
    // the same length (hash slots are shared by different values).
    let seed = 7
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed / 2 ** 32
    }
    for (let block = 0; block < 20; block++) {
      const values = Array.from({ length: 5000 }, () =>
        Array.from({ length: Math.floor(random() * 40) }, () => 'abAB01 ,'[Math.floor(random() * 8)]).join(
          '',
        ),
      )
      expect(decodeAll(values)).toEqual(values)
    }
  })

  it('hands out one string object for a repeated ASCII value, in another array too', () => {
    const [first] = decodeAll(['ORD'])
    const [again] = decodeAll(['xx', 'ORD'].slice(1))
    expect(again).toBe('ORD')
    expect(Object.is(first, again)).toBe(true)
  })

  it('decodes non-ASCII and long values exactly, and shares a repeated non-ASCII value within an array', () => {
    const values = ['Zürich', 'Москва', 'Zürich', '東京', 'x'.repeat(33), 'é'.repeat(20), '']
    const decoded = decodeAll(values)
    expect(decoded).toEqual(values)
    expect(decoded.map((value) => decoder.decode(encoder.encode(value)))).toEqual(values)
  })

  it('never returns a cached string for different bytes of the same length', () => {
    expect(decodeAll(['abc', 'abd', 'abc', 'abd'])).toEqual(['abc', 'abd', 'abc', 'abd'])
    expect(decodeAll(['abd'])).toEqual(['abd'])
    expect(decodeAll(['abe'])).toEqual(['abe'])
  })
})
