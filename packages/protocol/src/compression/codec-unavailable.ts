import { UsageError } from '../errors/usage-error.js'
import type { CompressionCodec } from './compression-codec.js'

/** The first line of why a load failed, short enough for an error message. */
export function reasonOf(reason: unknown): string {
  const message = reason instanceof Error ? reason.message : String(reason)
  return message.split('\n')[0]!.slice(0, 200)
}

/**
 * A codec that could not load: each use is the error it failed with (a UsageError naming
 * `alternative`), so that one method that cannot load here leaves the others usable.
 */
export function unavailableCodec(method: string, alternative: string, reason: unknown): CompressionCodec {
  const error = () =>
    reason instanceof UsageError
      ? reason
      : new UsageError(`${method} cannot load in this runtime (${reasonOf(reason)}): use ${alternative}`)
  return {
    compress() {
      throw error()
    },
    decompress() {
      throw error()
    },
  }
}
