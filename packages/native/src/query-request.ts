import { hostname, userInfo } from 'node:os'
import {
  type ByteWriter,
  clientRevision,
  Revision,
  type SettingValue,
  type TraceContext,
} from '@clickwire/protocol'
import { initialClientInfo, queryCodec } from '@clickwire/protocol/internal'
import { requirePlaceholderValues, serverParameters, substituteParameters } from '@clickwire/protocol/params'

/** The SQL and protocol parameters a Query packet carries. */
export interface PreparedQuery {
  readonly sql: string
  readonly parameters: readonly { readonly name: string; readonly value: string }[]
}

/**
 * Where `{name:Type}` values go on a connection of `revision`: from 54459 the server takes
 * them as protocol parameters and substitutes them itself; below, they are substituted
 * here as escaped literals of the declared type. Both give the same results.
 *
 * @example
 * ```ts
 * prepareQuery(54412, 'SELECT {n:UInt8}', { n: 7 }) // { sql: 'SELECT CAST(\'7\' AS UInt8)', parameters: [] }
 * prepareQuery(54460, 'SELECT {n:UInt8}', { n: 7 }) // { sql: 'SELECT {n:UInt8}', parameters: [{ name: 'n', value: '7' }] }
 * ```
 */
export function prepareQuery(
  revision: number,
  sql: string,
  params: Readonly<Record<string, unknown>> | undefined,
  /** The server's max_query_size, which a client-side substitution must stay within. */
  maxQuerySize?: number,
): PreparedQuery {
  if (!params || Object.keys(params).length === 0) {
    requirePlaceholderValues(sql)
    return { sql, parameters: [] }
  }
  if (revision >= Revision.withParameters) {
    return {
      sql,
      parameters: serverParameters(sql, params).map(({ name, text }) => ({ name, value: text })),
    }
  }
  return { sql: substituteParameters(sql, params, maxQuerySize), parameters: [] }
}

/** The version clickwire reports in Hello and ClientInfo. */
export const clientVersion = { major: 1, minor: 0, patch: 0 } as const

/** What a Query packet of this client carries. */
export interface QueryRequest extends PreparedQuery {
  readonly queryId: string
  readonly settings: readonly { readonly name: string; readonly value: SettingValue }[]
  /** Whether Data blocks travel compressed, both ways. */
  readonly compression: boolean
  readonly clientName: string
  readonly quotaKey: string
  /** The trace the server's spans continue (written from revision 54442, dropped below). */
  readonly traceContext?: TraceContext | undefined
}

/** Writes the Query packet for a connection of `revision` (fields gated on that revision). */
export function writeQueryRequest(writer: ByteWriter, request: QueryRequest, revision: number): void {
  queryCodec.encode(
    writer,
    {
      queryId: request.queryId,
      clientInfo: initialClientInfo({
        clientName: request.clientName,
        versionMajor: clientVersion.major,
        versionMinor: clientVersion.minor,
        versionPatch: clientVersion.patch,
        revision: clientRevision,
        osUser: osUser(),
        hostname: clientHostname(),
        quotaKey: request.quotaKey,
        traceContext: request.traceContext,
      }),
      settings: request.settings,
      compression: request.compression,
      query: request.sql,
      parameters: request.parameters,
    },
    revision,
  )
}

// Both are sent empty where the runtime refuses them (Deno without `--allow-sys`): they only
// label the query in system.processes and query_log, so they are never worth a failure.
let cachedHostname: string | undefined
function clientHostname(): string {
  if (cachedHostname === undefined) {
    try {
      cachedHostname = hostname()
    } catch {
      cachedHostname = ''
    }
  }
  return cachedHostname
}

let cachedOsUser: string | undefined
function osUser(): string {
  if (cachedOsUser === undefined) {
    try {
      cachedOsUser = userInfo().username
    } catch {
      cachedOsUser = ''
    }
  }
  return cachedOsUser
}
