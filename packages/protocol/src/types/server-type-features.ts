import { versionAtLeast } from '../sql/server-version.js'

/**
 * What the server's type system has, as far as inference cares. Servers before these types
 * existed get the nearest older type, or an error when there is none.
 */
export interface ParameterTypeFeatures {
  /** `Bool` (ClickHouse 21.12 and later). Without it, booleans are UInt8 0/1. */
  readonly bool: boolean
  /**
   * `DateTime64` (ClickHouse 20.1 and later). Without it, a JS Date is a `DateTime('UTC')`,
   * which has whole seconds only: a Date with milliseconds is then a UsageError.
   */
  readonly dateTime64: boolean
  /** `Map` (ClickHouse 21.1 and later). Without it, objects and JS Maps cannot be inferred. */
  readonly map: boolean
}

/** Every type inference may produce is available: current servers. */
export const modernParameterFeatures: ParameterTypeFeatures = Object.freeze({
  bool: true,
  dateTime64: true,
  map: true,
})

/** ClickHouse 18.16: no Bool, DateTime64 or Map. */
export const legacyParameterFeatures: ParameterTypeFeatures = Object.freeze({
  bool: false,
  dateTime64: false,
  map: false,
})

/**
 * Which inferred parameter types a server of `version` understands: Bool from 21.12,
 * DateTime64 from 20.1, Map from 21.1. An empty (unknown yet) version is a current server.
 */
export function parameterFeaturesOf(version: string): ParameterTypeFeatures {
  return {
    bool: versionAtLeast(version, 21, 12),
    dateTime64: versionAtLeast(version, 20, 1),
    map: versionAtLeast(version, 21, 1),
  }
}
