/** PEM text, or its bytes (Node's `Buffer` is a `Uint8Array`). */
export type PemInput = string | Uint8Array

/**
 * TLS settings for `clickhouses://` (native) and `https://` (HTTP, Node only), the one shape
 * every transport and the client take. Certificate verification is on unless turned off.
 */
export interface TlsOptions {
  /** CA certificate(s) to trust (PEM), instead of the system's. */
  readonly ca?: PemInput | readonly PemInput[] | undefined
  /** Client certificate (PEM), for servers that require one; goes with {@link key}. */
  readonly cert?: PemInput | undefined
  /** Private key of {@link cert} (PEM). */
  readonly key?: PemInput | undefined
  /** Default true. False accepts any certificate: for tests only. */
  readonly rejectUnauthorized?: boolean | undefined
  /** SNI / certificate host name, when it differs from the host connected to. */
  readonly servername?: string | undefined
}
