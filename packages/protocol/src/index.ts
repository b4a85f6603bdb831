export {
  blockValues,
  type RowFactory,
  type RowObject,
  type RowReader,
  rowArrays,
  rowFactory,
  rowObjects,
} from './blocks/block-rows.js'
export { defaultMaxBlockBytes } from './blocks/block-size-limit.js'
export * from './blocks/native-block.js'
export { NativeBlockReader, readBlockInfo } from './blocks/native-block-reader.js'
export { NativeStreamDecoder } from './blocks/native-stream-decoder.js'
export type { AggregateFunctionColumn } from './columns/aggregate-function-column.js'
export { supportedAggregateFunctions } from './columns/aggregate-function-names.js'
export { ArrayTypeColumn } from './columns/array-column.js'
export { BoolColumn } from './columns/bool-column.js'
export { codecFor, codecsReady, describeCodec, hasCodec } from './columns/codec-registry.js'
export * from './columns/column-codec.js'
export {
  type BooleanLayout,
  type BytesLayout,
  type ColumnLayout,
  type ColumnStorage,
  type DictionaryGranule,
  type DictionaryLayout,
  type FixedBytesLayout,
  type FixedLayout,
  fixedRowWidth,
  type ListLayout,
  type MapLayout,
  type NullableLayout,
  type NullLayout,
  type StorageKind,
  type StructLayout,
  storageOf,
  type TypedArray,
  type TypedArrayKind,
  type UnionLayout,
  type ValuesLayout,
} from './columns/column-layout.js'
export { ColumnParts, joinValues, wholeColumn } from './columns/column-parts.js'
export { DateColumn } from './columns/date-column.js'
export { DateTimeColumn } from './columns/date-time-column.js'
export { DateTime64Column } from './columns/date-time64-column.js'
export { DecimalColumn } from './columns/decimal-column.js'
export type { FlattenedDynamicColumn } from './columns/dynamic-column.js'
export { EnumColumn } from './columns/enum-column.js'
export { FixedStringColumn } from './columns/fixed-string-column.js'
export { intervalUnits } from './columns/interval-column.js'
export { IPv4Column } from './columns/ipv4-column.js'
export { IPv6Column } from './columns/ipv6-column.js'
export type { JsonColumn } from './columns/json-column.js'
export { LowCardinalityColumn } from './columns/low-cardinality-column.js'
export { MapColumn } from './columns/map-column.js'
export { NothingColumn } from './columns/nothing-column.js'
export { NullableColumn } from './columns/nullable-column.js'
export { CodecsPendingError, codecsPending, loadCodecs } from './columns/rare-codec-loader.js'
export { StringColumn } from './columns/string-column.js'
export type { TimeColumn } from './columns/time-column.js'
export { type TimeZone, timeZone } from './columns/time-zones.js'
export type { Time64Column } from './columns/time64-column.js'
export { TupleColumn } from './columns/tuple-column.js'
export { TypedValue, typedValue } from './columns/typed-value.js'
export { UuidColumn } from './columns/uuid-column.js'
export type { VariantColumn } from './columns/variant-column.js'
export { WideIntegerColumn } from './columns/wide-integer-column.js'
export type { CompressionCodec, CompressionCodecs } from './compression/compression-codec.js'
export {
  type CompressionMethod,
  CompressionMethodByte,
  checksumSize,
  defaultFrameSize,
  defaultMaxUncompressedSize,
  frameOverhead,
  maxCompressedSize,
} from './compression/frame-format.js'
export * from './errors/index.js'
export { BufferPool } from './io/buffer-pool.js'
export { ByteReader, maxValueLength } from './io/byte-reader.js'
export { ByteWriter } from './io/byte-writer.js'
export { InputArena } from './io/input-arena.js'
export { decodeUtf8, encodeUtf8, StringInterner, type TextSource, textSource } from './io/text-decoding.js'
export type { TraceContext } from './packets/client-info.js'
export {
  clientRevision,
  Revision,
  resolveProtocolRevision,
  revision18_16,
} from './packets/protocol-revision.js'
export { parseServerVersion, versionAtLeast } from './sql/server-version.js'
export { checkSettingName, settingEntries, settingValueText } from './sql/setting-value.js'
export {
  escapeSqlText,
  quoteQualifiedName,
  quoteSqlIdentifier,
  quoteSqlIdentifierIfNeeded,
  quoteSqlString,
  type SqlEscapes,
  type SqlStringOptions,
  unescapeSqlText,
  unquoteSqlString,
} from './sql/sql-quoting.js'
export { firstKeyword, isReadOnlyStatement } from './sql/statement-kind.js'
export { quoteTableName } from './sql/table-name.js'
export { listenForAbort } from './transport/abort-listener.js'
export { CallDeadline, type DeadlineErrors } from './transport/call-deadline.js'
export {
  type CompressionOption,
  type CompressionSettings,
  type CompressionWhenTrue,
  type RequestCompression,
  type ResolvedCompression,
  type ResponseCompression,
  resolveCompression,
} from './transport/compression-options.js'
export { type ConnectionUrl, parseConnectionUrl, type UrlEndpoint } from './transport/connection-url.js'
export {
  type HostHealthEvents,
  HostSelector,
  type HostSelectorSources,
  type HostStrategy,
  type HostStrategyName,
  hostStrategyOfLoadBalancing,
  isHostStrategy,
  type LoadBalancingName,
  resolveHostStrategy,
} from './transport/host-selector.js'
export type { KnownSettings } from './transport/known-settings.js'
export { newQueryId } from './transport/query-id.js'
export {
  type FailedAttempt,
  type RepeatableRequest,
  safeToRepeat,
  shouldRetry,
} from './transport/retry-policy.js'
export type { PemInput, TlsOptions } from './transport/tls-options.js'
export * from './transport/transport-contract.js'
// Parameter binding, formatting and the type a JS value is sent as live at
// `@clickwire/protocol/params`, compressed frames
// at `@clickwire/protocol/frames`, block writing and insert outcomes at
// `@clickwire/protocol/insert`, the FORMAT clause at `@clickwire/protocol/format-clause`: kept off this entry so that a browser page that queries
// without them never loads them (esbuild puts every module this entry imports, even one
// only re-exported, into the first load).
export {
  legacyParameterFeatures,
  modernParameterFeatures,
  type ParameterTypeFeatures,
  parameterFeaturesOf,
} from './types/server-type-features.js'
export { canonicalTypeName } from './types/type-aliases.js'
export {
  isSupportedType,
  type MappedType,
  mapType,
  type TypeFamily,
  tsPropertyKey,
  tsTypeOf,
  typeFamilies,
  typeFamily,
} from './types/type-mapping.js'
export * from './types/type-node.js'
export { parseType, parseTypeCached } from './types/type-parser.js'
export * from './types/value-mapping.js'
