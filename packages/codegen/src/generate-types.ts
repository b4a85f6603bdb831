import { readFile } from 'node:fs/promises'
import { type Client, type ClientOptions, createClient } from '@clickwire/client'
import { UsageError } from '@clickwire/protocol'
import { formatWarning, type IntrospectOptions, type RenderOptions } from './codegen-options.js'
import { introspect } from './schema-introspector.js'
import { render } from './schema-renderer.js'
import { unifiedDiff } from './text-diff.js'

/** Options of {@link generate}: where the server is, which tables, and how to type them. */
export interface GenerateOptions extends IntrospectOptions, RenderOptions {
  /** A client to read the schema with; it stays open. */
  readonly client?: Client | undefined
  /**
   * Server URL(s) when no client is given, as `createClient` takes them; default the
   * `CLICKHOUSE_URL` environment variable. The client made from it is closed afterwards.
   */
  readonly url?: string | readonly string[] | undefined
  /** More options for the client made from `url` (credentials, TLS, timeouts). */
  readonly clientOptions?: Omit<ClientOptions, 'url'> | undefined
}

/**
 * Introspects the server and renders the TypeScript module text: {@link introspect} then
 * {@link render}. Warnings (columns typed `unknown`) go to `onWarning`, default
 * `console.warn`.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises'
 * import { generate } from '@clickwire/codegen'
 *
 * const text = await generate({ url: 'clickhouse://127.0.0.1:9000', databases: ['default'] })
 * await writeFile('src/db.ts', text)
 * ```
 */
export async function generate(options: GenerateOptions = {}): Promise<string> {
  const url = options.url ?? process.env.CLICKHOUSE_URL
  if (!options.client && (url === undefined || url === '')) {
    throw new UsageError('no server to read: pass client or url, or set CLICKHOUSE_URL')
  }
  const client = options.client ?? createClient({ ...options.clientOptions, url })
  try {
    const schema = await introspect(client, options)
    return render(schema, {
      ...options,
      onWarning:
        options.onWarning ?? ((warning) => console.warn(`clickwire-codegen: ${formatWarning(warning)}`)),
    })
  } finally {
    if (!options.client) await client.close()
  }
}

/** Whether a generated file on disk is what codegen writes now. */
export interface VerifyResult {
  readonly upToDate: boolean
  /** Unified diff from the file on disk to the fresh text; `''` when up to date. */
  readonly diff: string
  /** False when the file does not exist. */
  readonly exists: boolean
}

/**
 * Compares the file at `path` with freshly generated `text`, for `--verify` in CI.
 *
 * @example
 * ```ts
 * const result = await verifyFile('src/db.ts', await generate({ url }))
 * if (!result.upToDate) console.error(result.diff)
 * ```
 */
export async function verifyFile(path: string, text: string): Promise<VerifyResult> {
  let current: string
  try {
    current = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { upToDate: false, diff: '', exists: false }
    throw error
  }
  const diff = unifiedDiff(current, text)
  return { upToDate: diff === '', diff, exists: true }
}
