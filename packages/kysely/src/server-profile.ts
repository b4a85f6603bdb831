import { type ParameterTypeFeatures, parameterFeaturesOf, versionAtLeast } from '@clickwire/protocol'

export type { ParameterTypeFeatures }

/**
 * What the compiler needs to know about a server to write SQL it accepts. Each flag names
 * the release that brought the feature; an unknown version means a current server.
 */
export interface ServerProfile {
  /** `major.minor...` as the server reports it; empty when not known yet. */
  readonly version: string
  /** Bool (21.12), DateTime64 (20.1), Map (21.1) parameter types. */
  readonly parameterTypes: ParameterTypeFeatures
  /** `WITH name AS (subquery)` named subqueries (20.10); older servers get them inlined. */
  readonly namedSubqueries: boolean
  /** Lightweight `DELETE FROM t WHERE ...` (experimental in 22.8, on by default since 23.3). */
  readonly lightweightDelete: boolean
  /**
   * Lightweight `UPDATE t SET ... WHERE ...` (experimental in 25.5, beta and on by default
   * since 25.8, per the server's own `system.settings_changes`). It still needs a table with
   * `enable_block_number_column = 1, enable_block_offset_column = 1`.
   */
  readonly lightweightUpdate: boolean
  /**
   * The server counts the rows an INSERT statement wrote (native Progress `written_rows`,
   * HTTP `X-ClickHouse-Summary`); 18.16 reports neither, so a 0 from it means "not known".
   */
  readonly reportsWrittenRows: boolean
}

const profiles = new Map<string, ServerProfile>()

/**
 * The profile of a server version (`SELECT version()`). Profiles are shared per version so
 * that the driver can tell by identity whether a query was compiled for the server it runs on.
 *
 * @example
 * ```ts
 * serverProfile('18.16.1').lightweightDelete // false: ALTER TABLE ... DELETE instead
 * ```
 */
export function serverProfile(version: string): ServerProfile {
  let profile = profiles.get(version)
  if (!profile) {
    profile = Object.freeze({
      version,
      parameterTypes: Object.freeze(parameterFeaturesOf(version)),
      namedSubqueries: versionAtLeast(version, 20, 10),
      lightweightDelete: versionAtLeast(version, 23, 3),
      lightweightUpdate: versionAtLeast(version, 25, 8),
      reportsWrittenRows: versionAtLeast(version, 20, 1),
    })
    profiles.set(version, profile)
  }
  return profile
}

/** The profile used before the server is known: a current server. */
export const currentServerProfile: ServerProfile = serverProfile('')
