// What both entry points export besides `createHttpTransport`.
export { fetchBackend } from './fetch-backend.js'
export type {
  BackendBody,
  BackendRequest,
  BackendResponse,
  BodyReader,
  HttpBackend,
  ResponseHeaders,
} from './http-backend.js'
export type {
  AuthMode,
  HttpTransportOptions,
  RequestCompression,
  ResponseCompression,
} from './http-options.js'
export { type HttpQueryOptions, HttpTransport, type RawQueryOptions } from './http-transport.js'
export { NativeResult } from './native-result.js'
export { RawResult } from './raw-result.js'
