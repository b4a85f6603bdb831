// Columns in the sparse and replicated layouts (has_custom = 1, then the kinds) decode to the
// same Column, with the same values, as their dense layout. Bytes built by hand from
// SerializationSparse.cpp / SerializationReplicated.cpp / SerializationInfo.cpp.
import { describe, expect, it } from 'vitest'
import { context, fromHex, hex } from '../../test/support/codec-checks.js'
import { ProtocolError } from '../errors/protocol-error.js'
import { ByteReader } from '../io/byte-reader.js'
import { ByteWriter } from '../io/byte-writer.js'
import { NativeBlockReader } from './native-block-reader.js'
import { NativeBlockWriter } from './native-block-writer.js'

const revision = 54488
const blockInfo = '0100' + '02ffffffff' + '00'

function varUInt(value: bigint): string {
  let out = ''
  let rest = value
  do {
    let byte = Number(rest & 0x7fn)
    rest >>= 7n
    if (rest > 0n) byte |= 0x80
    out += byte.toString(16).padStart(2, '0')
  } while (rest > 0n)
  return out
}

function text(value: string): string {
  const bytes = new TextEncoder().encode(value)
  return varUInt(BigInt(bytes.length)) + hex(bytes)
}

/** The offsets stream of a sparse column: defaults before each value, then the trailing ones with bit 62. */
function offsets(rows: number, positions: number[]): string {
  let out = ''
  let next = 0
  for (const position of positions) {
    out += varUInt(BigInt(position - next))
    next = position + 1
  }
  return out + varUInt(BigInt(rows - next) | (1n << 62n))
}

/** One block of one column: its name, type, has_custom = 1, the kinds, then the data. */
function block(type: string, rows: number, kinds: string, data: string): Uint8Array {
  return fromHex(blockInfo + '01' + varUInt(BigInt(rows)) + text('c') + text(type) + '01' + kinds + data)
}

function read(bytes: Uint8Array, at = revision) {
  const reader = new ByteReader(bytes)
  const result = new NativeBlockReader({ ...context(), revision: at }).read(reader)
  expect(reader.offset).toBe(bytes.length)
  return result!.columns[0]!.column
}

/** The column the dense layout of the same values gives. */
function dense(type: string, values: unknown[]) {
  const writer = new ByteWriter()
  new NativeBlockWriter({ ...context(), revision }).write(
    writer,
    [{ name: 'c', type, values }],
    values.length,
  )
  return read(writer.copy())
}

const u32 = (value: number) => hex(new Uint8Array(new Uint32Array([value]).buffer))

interface Case {
  readonly name: string
  readonly type: string
  readonly values: unknown[]
  readonly kinds: string
  readonly data: string
}

const cases: Case[] = [
  {
    name: 'sparse UInt32',
    type: 'UInt32',
    values: [0, 7, 0, 0, 9, 0],
    kinds: '01',
    data: offsets(6, [1, 4]) + u32(7) + u32(9),
  },
  {
    name: 'sparse UInt32 ending in a value',
    type: 'UInt32',
    values: [0, 0, 5],
    kinds: '01',
    data: offsets(3, [2]) + u32(5),
  },
  {
    name: 'sparse UInt32 of defaults only',
    type: 'UInt32',
    values: [0, 0, 0, 0],
    kinds: '01',
    data: offsets(4, []),
  },
  {
    name: 'sparse String',
    type: 'String',
    values: ['', 'ab', '', '', 'ü'],
    kinds: '01',
    data: offsets(5, [1, 4]) + text('ab') + text('ü'),
  },
  {
    name: 'sparse FixedString(2)',
    type: 'FixedString(2)',
    values: ['\u0000\u0000', 'xy'],
    kinds: '01',
    data: offsets(2, [1]) + hex(new TextEncoder().encode('xy')),
  },
  {
    name: 'sparse Nullable(Int32): NULL is the default, values have no null map',
    type: 'Nullable(Int32)',
    values: [null, 5, null, null, 0],
    kinds: '01' + '00',
    data: offsets(5, [1, 4]) + u32(5) + u32(0),
  },
  {
    name: 'sparse Nullable(String)',
    type: 'Nullable(String)',
    values: ['', null, 'q'],
    kinds: '01' + '00',
    data: offsets(3, [0, 2]) + text('') + text('q'),
  },
  {
    name: 'Tuple with a sparse element and a dense one',
    type: 'Tuple(a UInt8, b String)',
    values: [
      { a: 0, b: 'x' },
      { a: 0, b: 'y' },
      { a: 4, b: 'z' },
    ],
    kinds: '00' + '01' + '00',
    data: offsets(3, [2]) + '04' + text('x') + text('y') + text('z'),
  },
  {
    name: 'Tuple(Tuple) with a sparse inner element',
    type: 'Tuple(Tuple(Int64, String), UInt16)',
    values: [
      [[0n, ''], 1],
      [[-3n, 'k'], 2],
    ],
    kinds: '00' + '00' + '01' + '01' + '00',
    data: offsets(2, [1]) + 'fdffffffffffffff' + offsets(2, [1]) + text('k') + '0100' + '0200',
  },
  {
    name: 'replicated UInt32',
    type: 'UInt32',
    values: [10, 20, 10, 10],
    kinds: '04',
    data: '04' + '01' + '00010000' + '02' + u32(10) + u32(20),
  },
  {
    name: 'replicated String with 2-byte indexes',
    type: 'String',
    values: ['a', 'b', 'a'],
    kinds: '04',
    data: '03' + '02' + '000001000000' + '02' + text('a') + text('b'),
  },
]

describe('Native columns with custom serialization kinds', () => {
  it.each(cases)('$name: same values and Column class as dense', ({ type, values, kinds, data }) => {
    const column = read(block(type, values.length, kinds, data))
    const reference = dense(type, values)
    expect(Array.from(column.values())).toEqual(values)
    expect(Array.from({ length: column.length }, (_, row) => column.get(row))).toEqual(values)
    expect(Array.from(column.values())).toEqual(Array.from(reference.values()))
    if (!kinds.startsWith('04') || type === 'UInt32') expect(column.constructor).toBe(reference.constructor)
  })

  it('reads the 9-byte closing group of the offsets exactly', () => {
    expect(offsets(6, [1, 4])).toBe('0102' + '818080808080808040')
  })

  it('reads a replicated column over a sparse one (kind stack combination)', () => {
    const data = '03' + '01' + '000100' + '02' + offsets(2, [1]) + u32(8)
    const column = read(block('UInt32', 3, '05' + '03' + '000103', data))
    expect(Array.from(column.values())).toEqual([0, 8, 0])
  })

  it('reads sparse and replicated Strings in the size-stream layout at 54492', () => {
    const u64 = (value: number) => hex(new Uint8Array(new BigUint64Array([BigInt(value)]).buffer))
    const blob = (...values: string[]) => {
      let total = 0
      let out = ''
      for (const value of values) out += u64((total += new TextEncoder().encode(value).length))
      return out + values.map((value) => hex(new TextEncoder().encode(value))).join('')
    }
    const sparse = read(block('String', 5, '01', offsets(5, [1, 4]) + blob('ab', 'ü')), 54492)
    expect(Array.from(sparse.values())).toEqual(['', 'ab', '', '', 'ü'])
    const none = read(block('String', 3, '01', offsets(3, [])), 54492)
    expect(Array.from(none.values())).toEqual(['', '', ''])
    const last = read(block('String', 2, '01', offsets(2, [1]) + blob('z')), 54492)
    expect(Array.from(last.values())).toEqual(['', 'z'])
    const replicated = read(
      block('String', 3, '04', '03' + '02' + '000001000000' + '02' + blob('a', 'b')),
      54492,
    )
    expect(Array.from(replicated.values())).toEqual(['a', 'b', 'a'])
  })

  it('has no data for zero rows, only the kinds', () => {
    const bytes = block('Nullable(Int32)', 0, '0100', '')
    expect(read(bytes).length).toBe(0)
  })

  it.each(cases)(
    '$name: every truncation is missing input, and growing input resumes',
    ({ type, values, kinds, data }) => {
      const bytes = block(type, values.length, kinds, data)
      for (let cut = 0; cut < bytes.length; cut++) {
        const reader = new ByteReader(bytes.subarray(0, cut))
        expect(new NativeBlockReader({ ...context(), revision }).read(reader)).toBeUndefined()
        expect(reader.missing).toBeGreaterThan(cut)
      }
      const blocks = new NativeBlockReader({ ...context(), revision })
      const reader = new ByteReader()
      for (let cut = 1; cut < bytes.length; cut++)
        expect(blocks.read(reader.reset(bytes, 0, cut))).toBeUndefined()
      const whole = blocks.read(reader.reset(bytes, 0, bytes.length))!
      expect(Array.from(whole.columns[0]!.column.values())).toEqual(values)
    },
  )

  it('keeps one codec per layout when a server changes a column’s kinds between blocks', () => {
    const blocks = new NativeBlockReader({ ...context(), revision })
    const sparse = block('UInt32', 3, '01', offsets(3, [1]) + u32(4))
    const plain = fromHex(blockInfo + '0103' + text('c') + text('UInt32') + '00' + u32(1) + u32(2) + u32(3))
    for (const [bytes, values] of [
      [sparse, [0, 4, 0]],
      [plain, [1, 2, 3]],
      [sparse, [0, 4, 0]],
    ] as const) {
      const result = blocks.read(new ByteReader(bytes))!
      expect(Array.from(result.columns[0]!.column.values())).toEqual(values)
    }
  })

  it('counts a sparse column at its dense size against maxBlockBytes', () => {
    // 1000 UInt64 rows of defaults: 3 bytes of data on the wire, 8000 once rebuilt dense, after 22 of header.
    const bytes = block('UInt64', 1000, '01', offsets(1000, []))
    const within = new NativeBlockReader({ ...context(), revision }, true, 8100).read(new ByteReader(bytes))
    expect(within!.rows).toBe(1000)
    const reader = new NativeBlockReader({ ...context(), revision }, true, 8000)
    expect(() => reader.read(new ByteReader(bytes))).toThrow(ProtocolError)
    expect(() => reader.read(new ByteReader(bytes))).toThrow(
      /^a block of at least 8022 bytes is over maxBlockBytes \(8000\)/,
    )
  })

  it('rejects malformed kinds and offsets, naming the column', () => {
    const bad = [
      block('UInt32', 2, '09', ''),
      block('UInt32', 2, '01', offsets(3, [1]) + u32(1)),
      block('UInt32', 2, '01', varUInt(5n) + u32(1)),
      block('Array(UInt8)', 2, '01', offsets(2, [1]) + '0100000000000000' + '07'),
      block('UInt32', 2, '04', '03' + '01' + '000000'),
      block('UInt32', 2, '04', '02' + '01' + '0005' + '01' + u32(1)),
    ]
    for (const bytes of bad) {
      expect(() => new NativeBlockReader({ ...context(), revision }).read(new ByteReader(bytes))).toThrow(
        ProtocolError,
      )
    }
  })
})
