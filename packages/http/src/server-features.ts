import { versionAtLeast } from '@clickwire/protocol'

/**
 * What the HTTP path needs to know about a server, detected once per transport.
 *
 * Query parameters (`param_<name>` fields) came with ClickHouse 19; 18.16 rejects them
 * (`Unknown setting param_x`, checked live). We send them from 20.1 on, a version that
 * surely has them; older servers and unknown versions (forks that renumbered) get the
 * placeholders substituted client-side, which gives the same values and types.
 */
export interface ServerFeatures {
  readonly version: string
  readonly timezone: string
  readonly displayName: string
  readonly queryParameters: boolean
}

export function featuresOf(version: string, timezone: string, displayName: string): ServerFeatures {
  return {
    version,
    timezone,
    displayName,
    queryParameters: versionAtLeast(version, 20, 1),
  }
}
