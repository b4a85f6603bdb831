// runInsert over a constructed packet exchange: what 18.16 never sends (TableColumns with
// the defaults, written rows in Progress at 54460) and the state an error leaves.
import {
  ByteReader,
  ByteWriter,
  ClickHouseError,
  type CodecContext,
  defaultValueMapping,
  type NativeBlock,
  NativeBlockReader,
  UsageError,
} from '@clickwire/protocol'
import { NativeBlockWriter } from '@clickwire/protocol/insert'
import { describe, expect, it } from 'vitest'
import type { NativeConnection } from './native-connection.js'
import { runInsert } from './native-insert.js'
import type { IncomingPacket } from './packet-pump.js'

const context: CodecContext = { revision: 54460, timezone: 'UTC', mapping: defaultValueMapping }

function headerBlock(columns: { name: string; type: string }[]): NativeBlock {
  const writer = new ByteWriter(64)
  new NativeBlockWriter(context, true).write(
    writer,
    columns.map((column) => ({ ...column, values: [] })),
    0,
  )
  return new NativeBlockReader(context, true).read(new ByteReader(writer.copy()))!
}

const progress = (writtenRows: number): IncomingPacket => ({
  type: 'Progress',
  rows: 0,
  bytes: 0,
  totalRows: 0,
  totalBytes: 0,
  writtenRows,
  writtenBytes: writtenRows * 8,
  elapsedNs: 1,
})

/** A connection that answers with `packets` (in order) and records the blocks sent. */
function connectionWith(packets: IncomingPacket[], early: IncomingPacket[] = []) {
  const sent: { rows: number; columns: unknown[][] }[] = []
  const connection = {
    revision: context.revision,
    context,
    async receive() {
      const packet = packets.shift()
      if (!packet) throw new Error('no more packets')
      return packet
    },
    poll() {
      return early.shift()
    },
    async sendData(
      _table: string,
      columns: { values: ArrayLike<unknown> }[],
      rows: number,
      _writer?: unknown,
      hold = false,
    ) {
      sent.push({ rows, columns: columns.map((column) => Array.from(column.values)) })
      holds.push(hold)
    },
    async sendEncodedData(_table: string, bytes: Uint8Array, hold = false) {
      encoded.push(bytes.slice())
      holds.push(hold)
    },
  }
  const encoded: Uint8Array[] = []
  const holds: boolean[] = []
  return { connection: connection as unknown as NativeConnection, sent, encoded, holds }
}

const columnsText =
  'columns format version: 1\n' +
  '3 columns:\n' +
  '`id` UInt32\n' +
  "`label` String\tDEFAULT\tconcat('#', toString(id))\n" +
  '`m` UInt64\tMATERIALIZED\tid * 2\n'

/** Batches as an async iterable: a stream, sent block by block as it is read. */
async function* streamed<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items
}

describe('runInsert', () => {
  it('reads the defaults from TableColumns, cuts batches into blocks, and takes written rows from Progress at 54460', async () => {
    const { connection, sent, holds } = connectionWith([
      { type: 'TableColumns', table: '', columns: columnsText },
      {
        type: 'Data',
        table: '',
        block: headerBlock([
          { name: 'id', type: 'UInt32' },
          { name: 'label', type: 'String' },
        ]),
      },
      progress(3),
      progress(2),
      { type: 'EndOfStream' },
    ])
    const state = { streaming: false }
    let header: unknown
    const outcome = await runInsert(
      connection,
      (columns) => {
        header = columns.map(({ name, type, defaultKind, defaultExpression }) => ({
          name,
          type,
          defaultKind,
          defaultExpression,
        }))
        return streamed([
          {
            rows: 5,
            columns: [
              [1, 2, 3, 4, 5],
              ['a', 'b', 'c', 'd', 'e'],
            ],
          },
        ])
      },
      'q',
      2,
      state,
      () => {},
    )
    expect(header).toEqual([
      { name: 'id', type: 'UInt32', defaultKind: '', defaultExpression: undefined },
      {
        name: 'label',
        type: 'String',
        defaultKind: 'DEFAULT',
        defaultExpression: "concat('#', toString(id))",
      },
    ])
    expect(sent).toEqual([
      {
        rows: 2,
        columns: [
          [1, 2],
          ['a', 'b'],
        ],
      },
      {
        rows: 2,
        columns: [
          [3, 4],
          ['c', 'd'],
        ],
      },
      { rows: 1, columns: [[5], ['e']] },
      { rows: 0, columns: [] },
    ])
    // Every block's last byte is held back until the next packet; the end marker is whole.
    expect(holds).toEqual([true, true, true, false])
    expect(outcome.rowsWritten).toBe(5)
    expect(outcome.progress.writtenRows).toBe(5)
    expect(state.streaming).toBe(true)
  })

  it('encodes every block of values in memory before sending any: a bad value in the last sends nothing', async () => {
    const header = { type: 'Data' as const, table: '', block: headerBlock([{ name: 'u8', type: 'UInt8' }]) }
    const bad = connectionWith([header])
    const state = { streaming: false }
    const failure = await runInsert(
      bad.connection,
      () => [{ rows: 5, columns: [[1, 2, 3, 4, 300]] }],
      'q',
      2,
      state,
      () => {},
    ).catch((caught: unknown) => caught)
    expect(UsageError.isInstance(failure), String(failure)).toBe(true)
    expect((failure as Error).message).toBe(
      'column [0] "u8" UInt8: row 4: 300 is not a valid UInt8 (out of range)',
    )
    expect([bad.sent, bad.encoded, bad.holds]).toEqual([[], [], []])
    expect(state).toEqual({ streaming: true })

    const good = connectionWith([header, progress(5), { type: 'EndOfStream' }])
    const outcome = await runInsert(
      good.connection,
      () => [{ rows: 5, columns: [[1, 2, 3, 4, 5]] }],
      'q',
      2,
      { streaming: false },
      () => {},
    )
    // Three blocks as bytes, each held back by a byte, then the end marker.
    expect(good.encoded.length).toBe(3)
    expect(good.holds).toEqual([true, true, true, false])
    expect(good.sent).toEqual([{ rows: 0, columns: [] }])
    expect(outcome.rowsWritten).toBe(5)
  })

  it('raises an Exception that arrives between blocks, with the state saying the server was reading data', async () => {
    const error = new ClickHouseError({ code: 6, type: 'DB::Exception', message: 'Cannot parse string' })
    const { connection, sent } = connectionWith(
      [{ type: 'Data', table: '', block: headerBlock([{ name: 's', type: 'String' }]) }],
      [{ type: 'Exception', error }],
    )
    const state = { streaming: false }
    const failure = await runInsert(
      connection,
      () => streamed([{ rows: 4, columns: [['1', 'x', '3', '4']] }]),
      'q9',
      2,
      state,
      () => {},
    ).catch((caught: unknown) => caught)
    expect(failure).toMatchObject({ code: 6, queryId: 'q9' })
    // The first block went out; the error, seen right after, stopped the rest.
    expect(sent).toEqual([{ rows: 2, columns: [['1', 'x']] }])
    expect(state.streaming).toBe(true)
  })

  it('raises an Exception before the header with the connection still clean', async () => {
    const error = new ClickHouseError({
      code: 60,
      type: 'DB::Exception',
      message: 'Table default.t does not exist.',
    })
    const { connection, sent } = connectionWith([{ type: 'Exception', error }])
    const state = { streaming: false }
    await expect(
      runInsert(
        connection,
        () => [],
        'q',
        10,
        state,
        () => {},
      ),
    ).rejects.toMatchObject({ code: 60 })
    expect(sent).toEqual([])
    expect(state.streaming).toBe(false)
  })
})
