import { clientRevision, versionAtLeast } from '@clickwire/protocol'

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
   */
  readonly revision: number
  readonly timezone: string
  readonly displayName: string
  readonly queryParameters: boolean
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

export function featuresOf(probed: ProbedServer): ServerFeatures {
  return {
    name: serverName(probed.versionFull, probed.version),
    version: shortVersion(probed.version),
    revision: probed.serverRevision > 0 ? Math.min(clientRevision, probed.serverRevision) : 0,
    timezone: probed.timezone,
    displayName: probed.displayName,
    queryParameters: versionAtLeast(probed.version, 20, 1),
  }
}
