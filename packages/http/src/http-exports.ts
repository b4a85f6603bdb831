// What both entry points export besides `createHttpTransport`: its option and result types.
// The backends and the result classes' constructors are internal (`@clickwire/http/internal`).

export type { NativeResult } from './http-native-result.js'
export type {
  AuthMode,
  HttpTransportOptions,
  RequestCompression,
  ResponseCompression,
} from './http-options.js'
export type { HttpQueryOptions, HttpTransport, RawQueryOptions } from './http-transport.js'
export type { RawResult } from './raw-result.js'
