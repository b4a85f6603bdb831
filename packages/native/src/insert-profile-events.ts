import type { NativeBlock } from '@clickwire/protocol'

/** Rows and bytes an INSERT stored, as the server's ProfileEvents count them. */
export interface InsertedCounts {
  rows: number
  bytes: number
}

/**
 * Adds the `InsertedRows` / `InsertedBytes` increments of one ProfileEvents block to
 * `counts`. Modern servers (seen on 26.7) send no Progress at all during a native INSERT:
 * their only account of what was written is these events, which the same counting step
 * that fills HTTP's `written_rows` increments. A block may hold per-thread rows as well as
 * the query's own (thread id 0): only the query's are taken when present, so nothing is
 * counted twice.
 */
export function addInsertedCounts(counts: InsertedCounts, block: NativeBlock): void {
  const column = (name: string) => block.columns.find((each) => each.name === name)?.column
  const names = column('name')
  const values = column('value')
  const types = column('type')
  const threads = column('thread_id')
  if (!names || !values) return
  const rows: { name: string; value: number; thread: number }[] = []
  for (let row = 0; row < block.rows; row++) {
    const name = String(names.get(row))
    if (name !== 'InsertedRows' && name !== 'InsertedBytes') continue
    // Gauges are levels, not increments (no counter of these names is one, but be exact).
    if (types && String(types.get(row)) !== 'increment') continue
    rows.push({ name, value: Number(values.get(row)), thread: Number(threads?.get(row) ?? 0) })
  }
  const queryLevel = rows.some((each) => each.thread === 0)
  for (const each of rows) {
    if (queryLevel && each.thread !== 0) continue
    if (each.name === 'InsertedRows') counts.rows += each.value
    else counts.bytes += each.value
  }
}
