import { UsageError } from '../errors/usage-error.js'
import type { CodecFactory, CodecFamily } from './column-codec.js'

type RareModule = typeof import('./rare-codecs.js')

let loaded: RareModule | undefined
let loading: Promise<void> | undefined

/**
 * Loads the codecs of the rarer families (Variant, Dynamic, JSON, Geometry, QBit,
 * AggregateFunction, Time, Time64, BFloat16) once. Blocks decode synchronously, so the
 * transports await this when a block names such a type before they decode it
 * ({@link codecsPending}); call it yourself before `describeCodec` or `mapType` of
 * those types. A browser page that never meets them never downloads them.
 */
export function loadCodecs(): Promise<void> {
  loading ??= import('./rare-codecs.js').then(
    (module) => {
      loaded = module
    },
    (error: unknown) => {
      // A chunk that could not be fetched (a page offline for a moment): the next call tries again.
      loading = undefined
      throw error
    },
  )
  return loading
}

const brand = Symbol.for('clickwire.codecs.pending')

/**
 * Thrown by codecFor and describeCodec for a family whose codec is not loaded yet: the
 * transports catch it ({@link codecsPending}), await the load and decode the block again. It
 * reaches a caller only from a synchronous API used before {@link loadCodecs}.
 */
export class CodecsPendingError extends UsageError {
  override name = 'CodecsPendingError'
  readonly [brand] = true

  constructor(
    family: string,
    /** Settles when the codecs are loaded. */
    readonly loaded: Promise<void>,
  ) {
    super(`the codec of ClickHouse type ${family} is loaded on demand: await loadCodecs() first`)
  }
}

/** The load to await when `error` is a {@link CodecsPendingError}, else undefined. */
export function codecsPending(error: unknown): Promise<void> | undefined {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[brand] === true
    ? (error as CodecsPendingError).loaded
    : undefined
}

const rareEntries = new WeakSet<CodecFamily>()

/** Whether `family` is one of the entries {@link rareFamily} made. */
export function isRareFamily(family: CodecFamily): boolean {
  return rareEntries.has(family)
}

/** Whether the rare codecs are loaded (then no codec waits). */
export function rareCodecsLoaded(): boolean {
  return loaded !== undefined
}

/**
 * rare-codecs.ts once loaded, or a {@link CodecsPendingError} (naming `what`) that starts
 * the load.
 */
export function rareCodecs(what: string): RareModule {
  if (loaded === undefined) {
    // The load's own failure (a chunk that cannot be fetched) reaches the caller that
    // awaits it; a synchronous caller that does not await it must not see it unhandled.
    const pending = loadCodecs()
    pending.catch(() => {})
    throw new CodecsPendingError(what, pending)
  }
  return loaded
}

/** The factory `name` of rare-codecs.ts (see {@link rareCodecs}). */
export function rareFactory(name: string, family = name): CodecFactory {
  return rareCodecs(family).rareCodecFactories[name]!
}

/** A registry entry whose factory is in rare-codecs.ts: it starts the load on first use. */
export function rareFamily(name: string, runtime: string): CodecFamily {
  const family: CodecFamily = {
    name,
    runtime,
    create: (type, context, codecFor) => rareFactory(name)(type, context, codecFor),
  }
  rareEntries.add(family)
  return family
}
