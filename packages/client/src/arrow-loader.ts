import { UsageError } from '@clickwire/protocol'

/** The Arrow conversion code, loaded on first use. */
export type ArrowModule = typeof import('./arrow-table.js')

let loading: Promise<ArrowModule> | undefined

/**
 * Loads the Arrow conversion (and apache-arrow with it) the first time a result asks for
 * Arrow. Through `import()`, so that code that never calls `arrow()` does not load
 * apache-arrow (Node starts faster) and bundlers that split on `import()` (Vite, Rollup,
 * webpack, Parcel, esbuild with `--splitting`) keep it out of the page until it is used.
 * apache-arrow is an optional peer dependency (12 MB installed with its own dependencies, for
 * the callers of Arrow only): a failed load (apache-arrow not installed, a chunk the page
 * could not fetch) is a UsageError that says how to install it, and the next call tries
 * again.
 */
export function loadArrow(): Promise<ArrowModule> {
  loading ??= import('./arrow-table.js').catch((cause: unknown) => {
    loading = undefined
    throw new UsageError(
      `Arrow results need apache-arrow, an optional peer dependency of @clickwire/client: install it (npm install apache-arrow), or in a bundled page serve the chunk that holds it (${cause instanceof Error ? cause.message : String(cause)})`,
      { cause },
    )
  })
  return loading
}
