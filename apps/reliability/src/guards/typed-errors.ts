import {
  AbortError,
  ClickHouseError,
  ClickwireError,
  ConnectionError,
  ProtocolError,
  TimeoutError,
  UsageError,
} from '@clickwire/protocol'

/** The error classes a failure may surface as, by name; anything else is untyped. */
export type TypedErrorName =
  | 'ConnectionError'
  | 'TimeoutError'
  | 'ProtocolError'
  | 'ClickHouseError'
  | 'AbortError'
  | 'UsageError'
  | 'ClickwireError'

/**
 * Which clickwire error class `error` is (checked with the branded `isInstance`, which
 * holds across package copies), or undefined for anything else: a RangeError or
 * TypeError escaping a decoder, a raw socket error, a string.
 */
export function typedErrorName(error: unknown): TypedErrorName | undefined {
  if (!ClickwireError.isInstance(error)) return undefined
  if (ConnectionError.isInstance(error)) return 'ConnectionError'
  if (TimeoutError.isInstance(error)) return 'TimeoutError'
  if (ProtocolError.isInstance(error)) return 'ProtocolError'
  if (ClickHouseError.isInstance(error)) return 'ClickHouseError'
  if (AbortError.isInstance(error)) return 'AbortError'
  if (UsageError.isInstance(error)) return 'UsageError'
  return 'ClickwireError'
}

/** A short description of an error for assertion messages: class, name and message. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${typedErrorName(error) ?? 'untyped'} ${error.name}: ${error.message}`
  return `non-Error ${typeof error}: ${String(error)}`
}
