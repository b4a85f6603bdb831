/**
 * Server versions, for the features that depend on them. Each caller names the release
 * that brought a feature; this file only reads and compares versions.
 */

/** `major.minor.patch` of a version string such as `18.16.1` or `24.8.4.13`; zeros when unreadable. */
export function parseServerVersion(version: string): readonly [number, number, number] {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim())
  if (!match) return [0, 0, 0]
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)]
}

/**
 * Whether `version` is at least `major.minor`. An empty version (not known yet) counts as
 * a current server; an unreadable one (a fork that renumbered) as an old one.
 */
export function versionAtLeast(version: string, major: number, minor: number): boolean {
  if (version === '') return true
  const [a, b] = parseServerVersion(version)
  return a > major || (a === major && b >= minor)
}
