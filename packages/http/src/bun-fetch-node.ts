import type { TlsOptions } from '@clickwire/protocol'

/**
 * Bun runs the Node entry, but its node:http client is built on its own `fetch`, and the
 * Agent's socket options (slab reads, per-socket keep-alive) mean nothing there. Bun's
 * `fetch` is native and streams both ways, so it is the backend on Bun.
 */
export function onBun(): boolean {
  return typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined'
}

/**
 * Bun's fetch, with the transport's TLS options in Bun's own `tls` request field (ca, cert,
 * key, rejectUnauthorized; the certificate's host name is checked against `servername`).
 */
export function bunFetch(tls: TlsOptions | undefined): typeof fetch {
  const native = globalThis.fetch
  if (!tls) return native
  const bunTls = {
    ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
    ...(tls.cert !== undefined ? { cert: tls.cert } : {}),
    ...(tls.key !== undefined ? { key: tls.key } : {}),
    ...(tls.rejectUnauthorized !== undefined ? { rejectUnauthorized: tls.rejectUnauthorized } : {}),
    ...(tls.servername !== undefined ? { serverName: tls.servername } : {}),
  }
  return ((input: RequestInfo | URL, init?: RequestInit) =>
    native(input, { ...init, tls: bunTls } as RequestInit)) as typeof fetch
}
