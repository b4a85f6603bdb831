import type { CompressionCodecs } from '../compression/compression-codec.js'
import { UsageError } from '../errors/usage-error.js'

/**
 * Compression of request bodies. `lz4` and `zstd` are ClickHouse compressed frames (native:
 * every block sent; HTTP: insert bodies with `decompress=1`); `gzip` is HTTP's
 * `Content-Encoding: gzip` (HTTP only).
 */
export type RequestCompression = 'lz4' | 'zstd' | 'gzip'

/**
 * Compression of answers, HTTP only (native answers use the frame method of the request,
 * which the server is told with `network_compression_method`): `gzip` / `deflate` are HTTP
 * `Content-Encoding` with `enable_http_compression=1`; `frames` is ClickHouse compressed
 * frames with `compress=1`, checked once per transport (Debian's 18.16 answers an empty
 * body) and dropped when the server gets it wrong.
 */
export type ResponseCompression = 'gzip' | 'deflate' | 'frames'

/**
 * The detailed form of {@link CompressionOption}. `true` and `false` take @clickhouse/client's
 * shape (`{ request: true }`, `{ response: true }`) and mean what it means: HTTP `true` is
 * `gzip` in that direction; native compresses both directions with one method, so `true` on
 * either side turns on `lz4` both ways and `false` on both (or neither given) turns it off.
 */
export interface CompressionSettings {
  /**
   * What is sent. Native takes one frame method (`lz4` or `zstd`, used both ways); HTTP one
   * method or several (`gzip` with a frame method gzips the frames). `true`: HTTP `gzip`,
   * native `lz4`.
   */
  readonly request?: RequestCompression | readonly RequestCompression[] | boolean | undefined
  /**
   * What is received (HTTP; see {@link ResponseCompression}). `true`: HTTP `gzip`, native
   * `lz4` both ways unless `request` names a method.
   */
  readonly response?: ResponseCompression | boolean | undefined
  /** Block codecs for compressed frames (`nodeCompression()` / `portableCompression()`); default the transport's own. */
  readonly codecs?: CompressionCodecs | undefined
}

/**
 * The `compression` option of the client and of both transports. A method name is short for
 * `{ request: method }` (`none`: no compression): on native it is the block compression of
 * both directions (default `lz4`); on HTTP it compresses request bodies (default none), and
 * `gzip` is HTTP only.
 */
export type CompressionOption = RequestCompression | 'none' | boolean | CompressionSettings

/** What `true` stands for in each direction (see {@link CompressionSettings}); HTTP's by default. */
export interface CompressionWhenTrue {
  readonly request: RequestCompression
  readonly response: ResponseCompression | undefined
}

/** HTTP's meaning of `true`, @clickhouse/client's: gzip request bodies and gzip answers. */
export const httpCompressionWhenTrue: CompressionWhenTrue = { request: 'gzip', response: 'gzip' }

/** {@link CompressionOption} in its detailed form: methods in a list, `none` as an empty one. */
export interface ResolvedCompression {
  readonly request: readonly RequestCompression[]
  readonly response: ResponseCompression | undefined
  readonly codecs: CompressionCodecs | undefined
}

/**
 * Unfolds a {@link CompressionOption} (undefined gives `fallback`; `true` is `{ request: true,
 * response: true }`, `false` is `none`, and `true` in a direction is `whenTrue`'s method).
 * Method names are checked by the transport; a value of the wrong kind is a UsageError here.
 */
export function resolveCompression(
  option: CompressionOption | undefined,
  fallback: CompressionOption = 'none',
  whenTrue: CompressionWhenTrue = httpCompressionWhenTrue,
): ResolvedCompression {
  const value = option ?? fallback
  if (typeof value === 'string')
    return { request: value === 'none' ? [] : [value], response: undefined, codecs: undefined }
  if (typeof value === 'boolean')
    return {
      request: value ? [whenTrue.request] : [],
      response: value ? whenTrue.response : undefined,
      codecs: undefined,
    }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(
      `compression must be a method name, true, false or { request, response, codecs }, got ${describe(value)}`,
    )
  const { request, response } = value
  if (
    !(
      request === undefined ||
      typeof request === 'boolean' ||
      typeof request === 'string' ||
      (Array.isArray(request) && request.every((method) => typeof method === 'string'))
    )
  )
    throw new UsageError(
      `compression.request must be a method name, a list of them, true or false, got ${describe(request)}`,
    )
  if (!(response === undefined || typeof response === 'boolean' || typeof response === 'string'))
    throw new UsageError(
      `compression.response must be a method name, true or false, got ${describe(response)}`,
    )
  return {
    request:
      request === true
        ? [whenTrue.request]
        : request === false || request === undefined
          ? []
          : typeof request === 'string'
            ? [request]
            : [...(request as readonly RequestCompression[])],
    response: response === true ? whenTrue.response : response === false ? undefined : response,
    codecs: value.codecs,
  }
}

function describe(value: unknown): string {
  return Array.isArray(value)
    ? 'an array'
    : value === null
      ? 'null'
      : typeof value === 'object'
        ? 'an object'
        : String(value)
}
