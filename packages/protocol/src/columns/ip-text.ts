/** IPv4 and IPv6 text, both ways, the way ClickHouse writes it. */

const decimalBytes: readonly string[] = Array.from({ length: 256 }, (_, i) => String(i))

/** `a.b.c.d` of an address held as a UInt32 (a is the most significant byte). */
export function ipv4Text(value: number): string {
  const d = decimalBytes
  return `${d[value >>> 24]}.${d[(value >>> 16) & 255]}.${d[(value >>> 8) & 255]}.${d[value & 255]}`
}

const ipv4Input = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/** The UInt32 of dotted-quad text, or undefined. */
export function parseIPv4(text: string): number | undefined {
  const match = ipv4Input.exec(text)
  if (!match) return undefined
  let value = 0
  for (let i = 1; i <= 4; i++) {
    const part = Number(match[i])
    if (part > 255) return undefined
    value = value * 256 + part
  }
  return value
}

/** Scratch space for the eight 16-bit groups of the address being printed. */
const groupsOf = new Uint16Array(8)

/**
 * IPv6 text of 16 bytes at `at`, as ClickHouse's formatIPv6 (after inet_ntop) writes it:
 * lowercase hex groups without leading zeros, the first longest run of two or more zero
 * groups as `::`, and the last 32 bits in dotted form for IPv4-mapped (`::ffff:1.2.3.4`)
 * and IPv4-compatible (`::1.2.3.4`) addresses.
 */
export function ipv6Text(bytes: Uint8Array, at: number): string {
  const words = groupsOf
  for (let i = 0; i < 8; i++) words[i] = (bytes[at + 2 * i]! << 8) | bytes[at + 2 * i + 1]!
  let bestStart = -1
  let bestLength = 0
  let start = -1
  for (let i = 0; i <= 8; i++) {
    if (i < 8 && words[i] === 0) {
      if (start < 0) start = i
    } else if (start >= 0) {
      if (i - start > bestLength) {
        bestStart = start
        bestLength = i - start
      }
      start = -1
    }
  }
  if (bestLength < 2) bestStart = -1
  let text = ''
  for (let i = 0; i < 8; i++) {
    if (bestStart >= 0 && i >= bestStart && i < bestStart + bestLength) {
      if (i === bestStart) text += ':'
      continue
    }
    if (i !== 0) text += ':'
    if (i === 6 && bestStart === 0 && (bestLength === 6 || (bestLength === 5 && words[5] === 0xffff))) {
      return `${text}${decimalBytes[bytes[at + 12]!]}.${decimalBytes[bytes[at + 13]!]}.${decimalBytes[bytes[at + 14]!]}.${decimalBytes[bytes[at + 15]!]}`
    }
    text += words[i]!.toString(16)
  }
  if (bestStart >= 0 && bestStart + bestLength === 8) text += ':'
  return text
}

const hexGroup = /^[0-9a-fA-F]{1,4}$/

/**
 * Parses IPv6 text (any standard form, `::` compression, a trailing dotted IPv4 part)
 * into 16 bytes at `at` of `out`. Plain IPv4 text becomes its IPv4-mapped address
 * (`::ffff:a.b.c.d`), as ClickHouse reads it. Returns false for anything else.
 */
export function parseIPv6(text: string, out: Uint8Array, at: number): boolean {
  const ipv4 = parseIPv4(text)
  if (ipv4 !== undefined) {
    out.fill(0, at, at + 10)
    out[at + 10] = 0xff
    out[at + 11] = 0xff
    writeIPv4Bytes(ipv4, out, at + 12)
    return true
  }
  const halves = text.split('::')
  if (halves.length > 2) return false
  const groups: number[] = []
  const parseSide = (side: string, allowIPv4: boolean): number[] | undefined => {
    if (side === '') return []
    const parts = side.split(':')
    const words: number[] = []
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      if (hexGroup.test(part)) words.push(Number.parseInt(part, 16))
      else if (allowIPv4 && i === parts.length - 1) {
        const tail = parseIPv4(part)
        if (tail === undefined) return undefined
        words.push(tail >>> 16, tail & 0xffff)
      } else return undefined
    }
    return words
  }
  const head = parseSide(halves[0]!, halves.length === 1)
  if (!head) return false
  if (halves.length === 1) {
    if (head.length !== 8) return false
    groups.push(...head)
  } else {
    const tail = parseSide(halves[1]!, true)
    if (!tail || head.length + tail.length > 7) return false
    groups.push(...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail)
  }
  for (let i = 0; i < 8; i++) {
    out[at + 2 * i] = groups[i]! >>> 8
    out[at + 2 * i + 1] = groups[i]! & 0xff
  }
  return true
}

function writeIPv4Bytes(value: number, out: Uint8Array, at: number): void {
  out[at] = value >>> 24
  out[at + 1] = (value >>> 16) & 255
  out[at + 2] = (value >>> 8) & 255
  out[at + 3] = value & 255
}
