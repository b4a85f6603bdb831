import type { SqlFragment } from '@clickwire/client'

/** Which inferred parameter types a server understands (the client's own feature flags). */
export type ParameterTypeFeatures = NonNullable<Parameters<SqlFragment['compile']>[0]>

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
}

function versionParts(version: string): [number, number] {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10))
  return [Number.isFinite(major) ? major : 0, Number.isFinite(minor) ? minor : 0]
}

/** Whether `version` is at least `major.minor`; an empty version counts as the newest. */
export function versionAtLeast(version: string, major: number, minor: number): boolean {
  if (!version) return true
  const [a, b] = versionParts(version)
  return a > major || (a === major && b >= minor)
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
      // Same thresholds as the client's sql template (create-client.ts parameterFeaturesOf).
      parameterTypes: Object.freeze({
        bool: versionAtLeast(version, 21, 12),
        dateTime64: versionAtLeast(version, 20, 1),
        map: versionAtLeast(version, 21, 1),
      }),
      namedSubqueries: versionAtLeast(version, 20, 10),
      lightweightDelete: versionAtLeast(version, 23, 3),
    })
    profiles.set(version, profile)
  }
  return profile
}

/** The profile used before the server is known: a current server. */
export const currentServerProfile: ServerProfile = serverProfile('')
