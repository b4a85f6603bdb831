// What TypeScript says about a row of the wrong type given to insert<Row>(): the row's
// property, not the column-values types (`BigInt64Array | … | NumberArray`) a wrong array
// literal used to be explained against. Compiles a probe beside the sources with the
// package's own tsconfig and reads the diagnostics' text.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const probePath = join(packageDir, 'src', '__insert-type-probe.ts')
const probe = `import type { Client } from './clickwire-client.js'
declare const ch: Client
export async function wrong(): Promise<void> {
  await ch.insert<{ id: number }>('t', [{ id: 'x' }])
  await ch.insert<{ id: number; s: string }>('t', [{ id: 1, s: 'a' }, { id: 2, s: 3 }])
  await ch.insert<{ id: number }>('t', [{ id: 1, extra: true }])
}
export async function right(): Promise<void> {
  await ch.insert<{ id: number }>('t', [{ id: 1 }])
  await ch.insert('t', [[1, 'a']])
  await ch.insert('t', { id: new Uint32Array(2), length: [1, 2] })
}
`

function probeDiagnostics(): string[] {
  const configPath = join(packageDir, 'tsconfig.json')
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      },
    },
  )!
  const options = { ...config.options, noEmit: true, incremental: false, declaration: false }
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, language, ...rest) =>
    name === probePath ? ts.createSourceFile(name, probe, language) : getSourceFile(name, language, ...rest)
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (name) => name === probePath || fileExists(name)
  const program = ts.createProgram([probePath], options, host)
  const source = program.getSourceFile(probePath)!
  return [...program.getSemanticDiagnostics(source), ...program.getSyntacticDiagnostics(source)].map((d) => {
    const line = source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1
    return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
}

describe('insert<Row>() type errors', () => {
  it('name the row property whose value has the wrong type', () => {
    expect(probeDiagnostics()).toEqual([
      "4: Type 'string' is not assignable to type 'number'.",
      "5: Type 'number' is not assignable to type 'string'.",
      "6: Object literal may only specify known properties, and 'extra' does not exist in type '{ id: number; }'.",
    ])
  }, 120_000)
})
