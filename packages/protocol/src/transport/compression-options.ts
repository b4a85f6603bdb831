import type { CompressionCodecs } from '../compression/compression-codec.js'

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

/** The detailed form of {@link CompressionOption}. */
export interface CompressionSettings {
  /**
   * What is sent. Native takes one frame method (`lz4` or `zstd`, used both ways); HTTP one
   * method or several (`gzip` with a frame method gzips the frames).
   */
  readonly request?: RequestCompression | readonly RequestCompression[] | false | undefined
  /** What is received (HTTP only; see {@link ResponseCompression}). */
  readonly response?: ResponseCompression | false | undefined
  /** Block codecs for compressed frames (`nodeCompression()` / `portableCompression()`); default the transport's own. */
  readonly codecs?: CompressionCodecs | undefined
}

/**
 * The `compression` option of the client and of both transports. A method name is short for
 * `{ request: method }` (`none`: no compression): on native it is the block compression of
 * both directions (default `lz4`); on HTTP it compresses request bodies (default none), and
 * `gzip` is HTTP only.
 */
export type CompressionOption = RequestCompression | 'none' | CompressionSettings

/** {@link CompressionOption} in its detailed form: methods in a list, `none` as an empty one. */
export interface ResolvedCompression {
  readonly request: readonly RequestCompression[]
  readonly response: ResponseCompression | undefined
  readonly codecs: CompressionCodecs | undefined
}

/** Unfolds a {@link CompressionOption} (undefined gives `fallback`); names are checked by the transport. */
export function resolveCompression(
  option: CompressionOption | undefined,
  fallback: CompressionOption = 'none',
): ResolvedCompression {
  const value = option ?? fallback
  if (typeof value === 'string')
    return { request: value === 'none' ? [] : [value], response: undefined, codecs: undefined }
  const request = value.request
  return {
    request: request ? (typeof request === 'string' ? [request] : [...request]) : [],
    response: value.response || undefined,
    codecs: value.codecs,
  }
}
