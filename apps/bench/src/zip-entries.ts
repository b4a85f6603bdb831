import { readFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { createInflateRaw } from 'node:zlib'

/** One file inside a zip archive. */
export interface ZipEntry {
  readonly name: string
  readonly compressedSize: number
  readonly size: number
  /** Its bytes, inflated as they stream. */
  open(): Readable
}

const endOfCentralDirectory = 0x06054b50
const centralFileHeader = 0x02014b50
const localFileHeader = 0x04034b50

/**
 * Lists the files of a zip archive (the BTS monthly downloads are plain zips: stored or
 * deflated entries, no zip64, no encryption). The archive is read whole; entries inflate
 * as streams so a month's CSV never sits in memory at once.
 */
export async function readZipEntries(path: string): Promise<ZipEntry[]> {
  const bytes = await readFile(path)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let end = -1
  // The end record sits in the last 22 bytes plus at most a 64 KiB comment.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (view.getUint32(at, true) === endOfCentralDirectory) {
      end = at
      break
    }
  }
  if (end < 0) throw new Error(`${path} is not a zip archive (no end of central directory)`)
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const entries: ZipEntry[] = []
  for (let index = 0; index < count; index++) {
    if (view.getUint32(at, true) !== centralFileHeader) throw new Error(`${path}: broken central directory`)
    const method = view.getUint16(at + 10, true)
    const compressedSize = view.getUint32(at + 20, true)
    const size = view.getUint32(at + 24, true)
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    const localOffset = view.getUint32(at + 42, true)
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8')
    at += 46 + nameLength + extraLength + commentLength
    if (view.getUint32(localOffset, true) !== localFileHeader)
      throw new Error(`${path}: broken entry ${name}`)
    const dataStart =
      localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true)
    const data = bytes.subarray(dataStart, dataStart + compressedSize)
    if (method !== 0 && method !== 8)
      throw new Error(`${path}: entry ${name} uses compression method ${method}`)
    entries.push({
      name,
      compressedSize,
      size,
      open: () => (method === 0 ? Readable.from([data]) : Readable.from([data]).pipe(createInflateRaw())),
    })
  }
  return entries
}
