import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateRawSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { readBtsCsv } from './bts-csv-reader.js'
import { ontimeColumns } from './ontime-schema.js'
import { readZipEntries } from './zip-entries.js'

/** One BTS-style line: quoted strings, `.00` on numbers, a trailing comma. */
function btsLine(overrides: Record<string, string>): string {
  return `${ontimeColumns
    .map(([name, type]) => {
      const value = overrides[name] ?? (type === 'Date' ? '2017-01-01' : type.includes('String') ? '' : '')
      return type.includes('String') ? `"${value}"` : value
    })
    .join(',')},`
}

const header = `${ontimeColumns.map(([name]) => `"${name}"`).join(',')},`
const csv = [
  header,
  btsLine({
    Year: '2017',
    DayofMonth: '1',
    UniqueCarrier: 'AA',
    Carrier: 'AA',
    TailNum: 'N3GBAA',
    DepDelay: '-4.00',
    OriginCityName: 'Dallas/Fort Worth, TX',
  }),
  btsLine({
    Year: '2017',
    FlightDate: '2017-01-02',
    Carrier: 'DL',
    DepDelay: '25.00',
    ArrDelay: '31.00',
    Cancelled: '1.00',
    CancellationCode: 'B',
    Div1TotalGTime: '45.00',
    OriginCityName: 'He said ""hi""',
  }),
].join('\r\n')

async function collect(input: AsyncIterable<Uint8Array | string>, chunkRows?: number) {
  const chunks = []
  for await (const chunk of readBtsCsv(input, chunkRows)) chunks.push(chunk)
  return chunks
}

/** Splits text into pieces at every `step` characters, to cross quotes and line ends. */
async function* pieces(text: string, step: number) {
  for (let at = 0; at < text.length; at += step) yield new TextEncoder().encode(text.slice(at, at + step))
}

describe('readBtsCsv', () => {
  it('maps BTS fields by position, strips .00 like the reference, parses quotes and dates', async () => {
    const [chunk, ...rest] = await collect(pieces(csv, 1 << 20))
    expect(rest).toEqual([])
    expect(chunk!.rows).toBe(2)
    const { columns } = chunk!
    expect(Array.from(columns.Year as Uint16Array)).toEqual([2017, 2017])
    expect(Array.from(columns.FlightDate as Uint16Array)).toEqual([17167, 17168])
    expect(columns.Carrier).toEqual(['AA', 'DL'])
    expect(Array.from(columns.DepDelay as Int32Array)).toEqual([-4, 25])
    expect(Array.from(columns.Cancelled as Uint8Array)).toEqual([0, 1])
    expect(columns.CancellationCode).toEqual(['', 'B'])
    expect(columns.Div1TotalGTime).toEqual(['', '45'])
    expect(columns.OriginCityName).toEqual(['Dallas/Fort Worth, TX', 'He said "hi"'])
    expect(Array.from(columns.ArrDelay as Int32Array)).toEqual([0, 31])
  })

  it('gives the same rows whatever the input pieces and cuts them into chunks', async () => {
    const whole = await collect(pieces(csv, 1 << 20))
    for (const step of [1, 7, 64]) {
      const chunks = await collect(pieces(csv, step), 1)
      expect(chunks.map((chunk) => chunk.rows)).toEqual([1, 1])
      expect(chunks[1]!.columns.OriginCityName).toEqual(['He said "hi"'])
      expect(Array.from(chunks[0]!.columns.DepDelay as Int32Array)).toEqual([-4])
      expect(chunks[0]!.columns.TailNum).toEqual(whole[0]!.columns.TailNum.slice(0, 1))
    }
  })

  it('rejects a value that is not an integer, naming the line and column', async () => {
    const bad = [header, btsLine({ DepDelay: '12.50' })].join('\n')
    await expect(collect(pieces(bad, 100))).rejects.toThrow('line 2: DepDelay is not an integer: "12.50"')
  })
})

/** A zip with one deflated and one stored entry, written the way zip tools do. */
function zipOf(entries: { name: string; data: Buffer; deflate: boolean }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const body = entry.deflate ? deflateRawSync(entry.data) : entry.data
    const name = Buffer.from(entry.name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(entry.deflate ? 8 : 0, 8)
    local.writeUInt32LE(crc32(entry.data), 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(entry.data.length, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(entry.deflate ? 8 : 0, 10)
    central.writeUInt32LE(crc32(entry.data), 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(entry.data.length, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, body)
    centrals.push(central, name)
    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

describe('readZipEntries', () => {
  const folder = mkdtemp(join(tmpdir(), 'clickwire-zip-'))
  afterAll(async () => rm(await folder, { recursive: true, force: true }))

  it('lists the entries and inflates them as streams', async () => {
    const path = join(await folder, 'month.zip')
    await writeFile(
      path,
      zipOf([
        { name: 'readme.html', data: Buffer.from('<p>terms</p>'), deflate: false },
        { name: 'On_Time_2017_1.csv', data: Buffer.from(csv), deflate: true },
      ]),
    )
    const entries = await readZipEntries(path)
    expect(entries.map((entry) => [entry.name, entry.size])).toEqual([
      ['readme.html', 12],
      ['On_Time_2017_1.csv', csv.length],
    ])
    const chunks = await collect(entries[1]!.open())
    expect(chunks[0]!.columns.Carrier).toEqual(['AA', 'DL'])
    const stored: Buffer[] = []
    for await (const piece of entries[0]!.open()) stored.push(piece as Buffer)
    expect(Buffer.concat(stored).toString()).toBe('<p>terms</p>')
  })

  it('refuses a file that is not a zip', async () => {
    const path = join(await folder, 'not.zip')
    await writeFile(path, Buffer.alloc(100, 7))
    await expect(readZipEntries(path)).rejects.toThrow('is not a zip archive')
  })
})
