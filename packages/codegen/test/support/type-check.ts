import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import ts from 'typescript'

/** Kysely's type entry, so files written outside the package (temp dirs) resolve `kysely` too. */
const kyselyTypes = join(dirname(createRequire(import.meta.url).resolve('kysely')), 'index.d.ts')

/**
 * Type-checks files with the repository's strict settings and returns the diagnostics as
 * text (empty when clean). Files are resolved like the package's own sources, so
 * `import type { ColumnType } from "kysely"` finds the kysely devDependency.
 */
export function typeCheck(files: readonly string[]): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    moduleDetection: ts.ModuleDetectionKind.Force,
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: false,
    verbatimModuleSyntax: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    paths: { kysely: [kyselyTypes] },
  }
  const program = ts.createProgram([...files], options)
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
    if (!diagnostic.file || diagnostic.start === undefined) return text
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
    return `${diagnostic.file.fileName}:${line + 1}:${character + 1}: ${text}`
  })
}
