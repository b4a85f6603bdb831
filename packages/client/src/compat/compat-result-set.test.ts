import { describe, expect, it } from 'vitest'
import { CompatResultSet, type ResultSource } from './compat-result-set.js'

const json = { parse: JSON.parse, stringify: JSON.stringify }

function resultOf(chunks: readonly (Uint8Array | string)[], format = 'JSONEachRow') {
  const source: ResultSource = {
    chunks: (async function* () {
      yield* chunks
    })(),
    cancel: async () => {},
  }
  return new CompatResultSet(source, format, 'id', {}, json)
}

const bytes = (text: string) => new TextEncoder().encode(text)

describe('CompatResultSet lines', () => {
  it('joins a line cut inside a UTF-8 character, across three chunks, without a final newline', async () => {
    const all = bytes('{"s":"é€"}\n{"s":"𝄞x"}\n{"s":"end"}')
    // Cut inside é (2 bytes), inside € (3 bytes) and inside 𝄞 (4 bytes).
    const cuts = [7, 9, 22, all.length]
    const chunks: Uint8Array[] = []
    let from = 0
    for (const cut of cuts) {
      chunks.push(all.subarray(from, cut))
      from = cut
    }
    expect(await resultOf(chunks).json()).toEqual([{ s: 'é€' }, { s: '𝄞x' }, { s: 'end' }])
  })

  it('keeps the order of bytes and text when a source mixes them', async () => {
    const chunks = [bytes('a,'), 'b\nc', bytes('d\ne'), 'f\n']
    const rows: string[] = []
    for await (const batch of resultOf(chunks, 'CSV').stream()) for (const row of batch) rows.push(row.text)
    expect(rows).toEqual(['a,b', 'cd', 'ef'])
  })

  it('hands out one batch per chunk that ends a line; empty chunks change nothing', async () => {
    const chunks = [bytes('1\n2\n'), new Uint8Array(0), bytes('3'), bytes('\n4\n')]
    const batches: string[][] = []
    for await (const batch of resultOf(chunks, 'TSV').stream())
      batches.push(batch.map((row: { text: string }) => row.text))
    expect(batches).toEqual([
      ['1', '2'],
      ['3', '4'],
    ])
  })
})
