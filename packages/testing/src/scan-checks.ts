/**
 * The scan both transports' memory-reuse tests read (native and HTTP decode through the
 * same pipeline, so they make the same promises): 3M rows of a number, its text and its
 * remainder by 7, checked value by value inside the loop, while the block is still the
 * consumer's.
 */

/** The part of a decoded block the checks read (protocol's NativeBlock has it). */
export interface ScanBlock {
  readonly rows: number
  readonly columns: ReadonlyArray<{ readonly column: { values(): unknown; get(row: number): unknown } }>
}

/** A block stream as the transports return it. */
export interface ScanStream extends AsyncIterable<ScanBlock> {
  recycleBlocks?(): void
}

/** Rows of {@link scanSelect}. */
export const scanRows = 3_000_000

export const scanSelect = `SELECT number, toString(number) AS s, toUInt32(number % 7) AS m FROM system.numbers LIMIT ${scanRows}`

/** Checks one block's every number and remainder, and its strings at both ends and the middle; throws on a wrong value. */
export function checkScanBlock(block: ScanBlock, first: bigint): void {
  const numbers = block.columns[0]!.column.values() as BigUint64Array
  const remainders = block.columns[2]!.column.values() as Uint32Array
  for (let row = 0; row < block.rows; row++) {
    const expected = first + BigInt(row)
    if (numbers[row] !== expected || remainders[row] !== Number(expected % 7n)) {
      throw new Error(`row ${expected}: got ${numbers[row]} and ${remainders[row]}`)
    }
  }
  for (const row of [0, block.rows >> 1, block.rows - 1]) {
    const text = block.columns[1]!.column.get(row)
    if (text !== String(first + BigInt(row)))
      throw new Error(`row ${first + BigInt(row)}: text ${String(text)}`)
  }
}

/**
 * Reads a stream of {@link scanSelect}, checking every block inside the loop, with memory
 * reuse when `reuse`; a `slow` consumer pauses every 5 blocks, so the transport reads
 * ahead meanwhile. Returns the rows read and how many distinct buffers the numbers lived in.
 */
export async function readScan(
  stream: ScanStream,
  reuse: boolean,
  slow: boolean,
): Promise<{ rows: bigint; buffers: number }> {
  if (reuse) stream.recycleBlocks?.()
  const buffers = new Set<ArrayBufferLike>()
  let next = 0n
  let blocks = 0
  for await (const block of stream) {
    checkScanBlock(block, next)
    buffers.add((block.columns[0]!.column.values() as BigUint64Array).buffer)
    next += BigInt(block.rows)
    if (slow && ++blocks % 5 === 0) await new Promise((resolve) => setTimeout(resolve, 2))
  }
  return { rows: next, buffers: buffers.size }
}

/**
 * Reads one whole result of {@link scanSelect} and keeps its blocks, then reads a second
 * one with memory reuse (on the same connection when the pool holds one), then checks the
 * kept blocks again: memory reuse must never touch a result the caller still holds.
 * Returns the rows of the kept result, checked.
 */
export async function checkKeptWhileRecycling(query: () => Promise<ScanStream>): Promise<bigint> {
  const kept: ScanBlock[] = []
  for await (const block of await query()) kept.push(block)
  const { rows } = await readScan(await query(), true, false)
  if (rows !== BigInt(scanRows)) throw new Error(`the recycled scan read ${rows} rows`)
  let first = 0n
  for (const block of kept) {
    checkScanBlock(block, first)
    first += BigInt(block.rows)
  }
  return first
}
