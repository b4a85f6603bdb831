// Shared helpers of the integration tests: transports on the run's server, result collection.

import type { BlockStream } from '@clickwire/protocol'
import type { ServerInfo } from '@clickwire/testing'
import { createNativeTransport, type NativeTransport, type NativeTransportOptions } from '../../src/index.js'
import { parseNativeUrl } from '../../src/native-options.js'

/** A transport on the server's plain native port; closed by the caller. */
export function nativeOn(
  server: Pick<ServerInfo, 'nativeUrl'>,
  options: Partial<NativeTransportOptions> = {},
): NativeTransport {
  return createNativeTransport({ hosts: parseNativeUrl(server.nativeUrl).hosts, ...options })
}

/** Every row of a result, column by column (values as the codecs decode them). */
export async function collect(
  stream: BlockStream,
): Promise<{ names: string[]; types: string[]; columns: unknown[][] }> {
  const meta = await stream.columns()
  const columns: unknown[][] = meta.map(() => [])
  for await (const block of stream) {
    block.columns.forEach((entry, index) => {
      const target = columns[index]!
      for (let row = 0; row < block.rows; row++) target.push(entry.column.get(row))
    })
  }
  return { names: meta.map((column) => column.name), types: meta.map((column) => column.type), columns }
}

/** The result's rows as arrays. */
export async function rowsOf(
  native: NativeTransport,
  sql: string,
  options: Parameters<NativeTransport['query']>[1] = {},
): Promise<unknown[][]> {
  const { columns } = await collect(await native.query(sql, options))
  const count = columns[0]?.length ?? 0
  return Array.from({ length: count }, (_, row) => columns.map((column) => column[row]))
}

/** The first value of the first row. */
export async function firstValue(
  native: NativeTransport,
  sql: string,
  options: Parameters<NativeTransport['query']>[1] = {},
): Promise<unknown> {
  return (await rowsOf(native, sql, options))[0]?.[0]
}

/** A table name of this test's own. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
}

/**
 * Marks the connection a transport with one connection holds: a SET sticks to the native
 * session, so reading the setting back later proves a query ran on the same connection.
 */
export async function markConnection(native: NativeTransport, mark: number): Promise<void> {
  await native.command(`SET max_query_size = ${mark}`)
}

/** The mark of the connection the next query runs on (262144 on a fresh one). */
export async function connectionMark(native: NativeTransport): Promise<number> {
  return Number(await firstValue(native, "SELECT value FROM system.settings WHERE name = 'max_query_size'"))
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
