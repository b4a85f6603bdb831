/**
 * `@clickwire/codegen`: ClickHouse tables -> TypeScript types, typed by the same mapping
 * table the decoders follow, so the types say exactly what `@clickwire/client` returns.
 * Three stages, each usable alone: {@link introspect} (server -> plain metadata),
 * {@link render} (metadata -> TS text) and {@link generate} (both).
 *
 * @example
 * ```ts
 * import { generate } from '@clickwire/codegen'
 *
 * const text = await generate({ url: 'clickhouse://127.0.0.1:9000/default', int64: 'string' })
 * ```
 *
 * @packageDocumentation
 */

export type { CodegenConfig } from './cli/cli-config.js'
export { type CliIo, exitCodes, runCli } from './cli/cli-program.js'
export type {
  CodegenWarning,
  IntrospectionProgress,
  IntrospectOptions,
  RenderOptions,
} from './codegen-options.js'
export { type GenerateOptions, generate, type VerifyResult, verifyFile } from './generate-types.js'
export { introspect } from './schema-introspector.js'
export type {
  ColumnDefaultKind,
  ColumnMetadata,
  DistributedMetadata,
  LocalColumnMetadata,
  SchemaMetadata,
  TableKind,
  TableMetadata,
} from './schema-metadata.js'
export { render } from './schema-renderer.js'
