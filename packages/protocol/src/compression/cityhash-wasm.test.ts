import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cityHashWasmModule } from '../test-support/compression-cityhash-wasm-source.js'
import { assembleModule } from '../test-support/compression-wasm-assembler.js'

const generatedFile = fileURLToPath(new URL('./cityhash-wasm.gen.ts', import.meta.url))

function render(bytes: Uint8Array): string {
  const base64 = Buffer.from(bytes).toString('base64')
  const lines = base64.match(/.{1,100}/g) ?? []
  return [
    '// Generated from src/test-support/compression-cityhash-wasm-source.ts. Do not edit: change the source',
    '// and run `CLICKWIRE_REGENERATE=1 npx vitest run --project unit src/compression/cityhash-wasm.test.ts`.',
    `/** The CityHash128 v1.0.2 WebAssembly module (${bytes.length} bytes), base64. */`,
    'export const cityHashWasmBase64 =',
    lines.map((line) => `  '${line}'`).join(' +\n'),
    '',
  ].join('\n')
}

describe('cityhash-wasm.gen.ts', () => {
  it('is what the assembler makes from the module source', () => {
    const expected = render(assembleModule(cityHashWasmModule))
    if (process.env.CLICKWIRE_REGENERATE) writeFileSync(generatedFile, expected)
    expect(readFileSync(generatedFile, 'utf8')).toBe(expected)
  })
})
