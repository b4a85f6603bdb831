import { Revision, versionAtLeast } from '@clickwire/protocol'

/**
 * What the HTTP path knows about a server, learned once per transport (see server-probe.ts).
 *
 * Query parameters (`param_<name>` fields) came with ClickHouse 19; 18.16 rejects them
 * (`Unknown setting param_x`, checked live). We send them from 20.1 on, a version that
 * surely has them; older servers and unknown versions (forks that renamed) get the
 * placeholders substituted client-side, which gives the same values and types.
 */
export interface ServerFeatures {
  /** The server's name (`ClickHouse`), as its native Hello names it. */
  readonly name: string
  /** `major.minor.patch`, as the native Hello gives it. */
  readonly version: string
  /**
   * The native protocol revision clickwire speaks with this server: the smaller of its own
   * and the server's, as the native handshake negotiates it; 0 when the server hides it.
   * `FORMAT Native` answers are asked at it from 54492 on (see {@link nativeRevision}).
   */
  readonly revision: number
  readonly timezone: string
  readonly displayName: string
  readonly queryParameters: boolean
  /**
   * The `readonly` level requests outside a session run at (the user's profile and the
   * transport's settings), -1 when unknown: read-only queries are sent so that the server
   * cancels them when their connection closes only where it is known (see
   * close-cancel-settings.ts).
   */
  readonly readonly: number
  /** Whether the server has `cancel_http_readonly_queries_on_client_close` (not 18.16). */
  readonly cancelsOnClientClose: boolean
}

/** What the server probe read, as text. */
export interface ProbedServer {
  /** `version()`: `18.16.1`, `26.7.2.1`. */
  readonly version: string
  readonly timezone: string
  /** The server's protocol revision, 0 when unknown. */
  readonly serverRevision: number
  /** `VERSION_FULL` of system.build_options (`ClickHouse 26.7.2.1`), '' when unknown. */
  readonly versionFull: string
  readonly displayName: string
  /** The `readonly` setting's value, '' when unknown. */
  readonly readonly?: string | undefined
  /** Whether system.settings has `cancel_http_readonly_queries_on_client_close`. */
  readonly cancelsOnClientClose?: boolean | undefined
}

/** `major.minor.patch` of `version()`, which has a fourth part on most servers; other text as it is. */
function shortVersion(version: string): string {
  return /^\d+\.\d+\.\d+/.exec(version)?.[0] ?? version
}

/** The server's name from `VERSION_FULL` (its name, a space, its version), else ClickHouse. */
function serverName(versionFull: string, version: string): string {
  const suffix = ` ${version}`
  return versionFull.endsWith(suffix) && versionFull.length > suffix.length
    ? versionFull.slice(0, -suffix.length)
    : 'ClickHouse'
}

/**
 * The revision a native handshake would settle on. SQL shows no TCP protocol version, only
 * the build's VERSION_REVISION (54515 on 26.9), which is at least it; the size-stream
 * String layout of 54492 came with 26.8, so older servers are taken at 54488 at most
 * (26.7's, and more than any older line speaks).
 */
function negotiatedOverHttp(probed: ProbedServer, protocolRevision: number): number {
  if (probed.serverRevision <= 0) return 0
  const known = versionAtLeast(probed.version, 26, 8)
    ? probed.serverRevision
    : Math.min(probed.serverRevision, Revision.withInterserverCurrentRoles)
  return Math.min(protocolRevision, known)
}

/**
 * The revision to ask `FORMAT Native` answers in (`client_protocol_version`), 0 for none:
 * the negotiated one when the caller asked for it (`protocolRevision`) and it brings the
 * size-stream String layout (26.8 on). Otherwise revision 0, the layout every server writes
 * the same and the smallest on the wire (see HttpTransportOptions.protocolRevision).
 */
export function nativeRevision(features: ServerFeatures, asked: boolean): number {
  return asked && features.revision >= Revision.withStringWithSizeStreamSerialization ? features.revision : 0
}

export function featuresOf(probed: ProbedServer, protocolRevision: number): ServerFeatures {
  return {
    name: serverName(probed.versionFull, probed.version),
    version: shortVersion(probed.version),
    revision: negotiatedOverHttp(probed, protocolRevision),
    timezone: probed.timezone,
    displayName: probed.displayName,
    queryParameters: versionAtLeast(probed.version, 20, 1),
    readonly: /^\d+$/.test(probed.readonly ?? '') ? Number(probed.readonly) : -1,
    cancelsOnClientClose: probed.cancelsOnClientClose ?? false,
  }
}
