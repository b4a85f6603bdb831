// Fake servers written for the test, a legitimate fault injection: each answers like a
// ClickHouse server up to a point, then sends what no real server would. The client must
// fail fast with a typed error, hold no memory for the lengths it was promised, and leave
// no promise unsettled. Native: a huge length prefix (a varint of 2^60) in several places,
// absurd column, row and array counts, a truncated packet then a close or a stall, and
// garbage after a valid Hello. HTTP: 200 answers with a Native format header and a body
// that is garbage, absurd, or cut short.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { createServer, type Server, type Socket } from 'node:net'
import { ClickwireError, createClient } from '@clickwire/client'
import { afterAll, describe, expect, it } from 'vitest'
import { installProcessGuard } from '../src/guards/process-guard.js'
import { concat, goodBlock, lz4Frame, lz4Zeros, noneFrame, text, varUInt } from './support/hostile-frames.js'

const guard = installProcessGuard()
afterAll(() => guard.dispose())

/**
 * Generous: a loaded machine can take more than a second and a half to load the decoders and
 * parse the garbage, which then failed as a TimeoutError (a quiet one fails in milliseconds;
 * only the "then silence" cases wait for this limit).
 */
const requestTimeoutMs = 5000
/** Settling later than this means the client waited for something it should not have. */
const settleWithinMs = requestTimeoutMs + 5000
/** More RSS growth than this for one case means the client believed a length. */
const rssLimitBytes = 96 * 1024 * 1024

const u64 = (value: bigint) => [...Buffer.from(new BigUint64Array([value]).buffer)]
const huge = 1n << 60n

/** A server Hello at 18.16's revision (54412): name, version, revision, time zone, display name, patch. */
const serverHello = [
  0,
  ...text('ClickHouse'),
  ...varUInt(18n),
  ...varUInt(16n),
  ...varUInt(54412n),
  ...text('UTC'),
  ...text('hostile'),
  ...varUInt(1n),
]
/** The start of a Data packet at 54412: packet id, table name, BlockInfo (fields 1 and 2, then 0). */
const dataStart = [1, ...text(''), 1, 0, 2, 0xff, 0xff, 0xff, 0xff, 0]
/** One block column header: name and type. */
const column = (name: string, type: string) => [...text(name), ...text(type)]

interface NativeCase {
  readonly name: string
  /** Bytes instead of the Hello (then nothing else), or after a valid Hello, answering the query. */
  readonly hello?: number[]
  readonly answer?: number[]
  /** After the bytes: close the socket (default) or keep it open and silent. */
  readonly after?: 'close' | 'stall'
  /** The client's compression (default none, so block bodies travel as written here). */
  readonly compression?: 'lz4' | 'none'
  readonly error: RegExp
}

const nativeCases: NativeCase[] = [
  {
    name: 'a 2^60-byte server name in the Hello',
    hello: [0, ...varUInt(huge)],
    after: 'stall',
    error: /^(ProtocolError|TimeoutError)$/,
  },
  {
    name: 'a 2^60-byte table name in a Data packet',
    answer: [1, ...varUInt(huge)],
    after: 'stall',
    error: /^(ProtocolError|TimeoutError)$/,
  },
  {
    name: 'a block of 2^60 columns',
    answer: [...dataStart, ...varUInt(huge), ...varUInt(1n)],
    after: 'stall',
    error: /^ProtocolError$/,
  },
  {
    name: 'a block of 2^60 rows',
    answer: [...dataStart, ...varUInt(1n), ...varUInt(huge)],
    after: 'stall',
    error: /^ProtocolError$/,
  },
  {
    name: 'a String value of 2^60 bytes',
    answer: [...dataStart, ...varUInt(1n), ...varUInt(1n), ...column('s', 'String'), ...varUInt(huge)],
    after: 'stall',
    error: /^(ProtocolError|TimeoutError)$/,
  },
  {
    name: 'an Array of 2^50 elements in one row',
    answer: [...dataStart, ...varUInt(1n), ...varUInt(1n), ...column('a', 'Array(UInt8)'), ...u64(1n << 50n)],
    after: 'stall',
    error: /^(ProtocolError|TimeoutError)$/,
  },
  {
    name: 'an LZ4 frame that claims 4 GiB',
    // Checksum (16 bytes), method LZ4, compressed size 0xffffffff, raw size 0xffffffff.
    answer: [
      1,
      ...text(''),
      ...Array.from({ length: 16 }, () => 0),
      0x82,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
      0xff,
    ],
    after: 'stall',
    compression: 'lz4',
    error: /^(ProtocolError|TimeoutError)$/,
  },
  {
    name: 'a truncated packet, then a close',
    answer: [1, ...varUInt(5n), 0x61, 0x62],
    after: 'close',
    error: /^ConnectionError$/,
  },
  {
    name: 'a truncated packet, then silence',
    answer: [1, ...varUInt(5n), 0x61, 0x62],
    after: 'stall',
    error: /^TimeoutError$/,
  },
  {
    name: '64 KiB of garbage after a valid Hello',
    // A fixed pseudo-random sequence whose first byte is no packet id a server sends.
    answer: [0x7f, ...Array.from({ length: 65_535 }, (_, i) => (i * 2_654_435_761) >>> 24)],
    after: 'close',
    error: /^(ProtocolError|ConnectionError)$/,
  },
]

async function listen(server: Server | HttpServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** A native fake: answers the client's Hello, then its query, with the case's bytes. */
async function nativeFake(fake: NativeCase): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    let chunks = 0
    socket.on('data', () => {
      chunks++
      if (chunks === 1) {
        if (fake.hello) {
          socket.write(Buffer.from(fake.hello))
          if (fake.after !== 'stall') socket.end()
        } else socket.write(Buffer.from(serverHello))
      } else if (chunks === 2 && fake.answer) {
        socket.write(Buffer.from(fake.answer))
        if (fake.after !== 'stall') socket.end()
      }
    })
  })
  const port = await listen(server)
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

interface Outcome {
  readonly name: string
  readonly ms: number
  readonly rssGrowth: number
}

async function expectFastTypedFailure(
  run: () => Promise<unknown>,
  error: RegExp,
  where: string,
): Promise<Outcome> {
  const rssBefore = process.memoryUsage().rss
  const started = Date.now()
  let timer: NodeJS.Timeout | undefined
  const outcome = await Promise.race([
    run().then(
      () => ({ ok: true as const }),
      (failure: unknown) => ({ ok: false as const, failure }),
    ),
    new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), settleWithinMs)
    }),
  ])
  clearTimeout(timer)
  const ms = Date.now() - started
  expect(outcome, where).not.toBe('hung')
  if (outcome === 'hung') throw new Error('unreachable')
  expect(outcome.ok, where).toBe(false)
  if (outcome.ok) throw new Error('unreachable')
  const failure = outcome.failure as Error
  expect(ClickwireError.isInstance(failure), `${where}: ${String(failure)}`).toBe(true)
  expect(failure.name, `${where}: ${failure.message}`).toMatch(error)
  const rssGrowth = process.memoryUsage().rss - rssBefore
  expect(rssGrowth, where).toBeLessThan(rssLimitBytes)
  return { name: failure.name, ms, rssGrowth }
}

const seen: Record<string, Outcome> = {}
afterAll(() => {
  console.log(`[hostile] ${JSON.stringify(seen)}`)
})

describe('native: a hostile server', () => {
  for (const fake of nativeCases) {
    it(`fails fast with a typed error and bounded memory on ${fake.name}`, async () => {
      const server = await nativeFake(fake)
      const client = createClient({
        url: `clickhouse://127.0.0.1:${server.port}?compression=${fake.compression ?? 'none'}`,
        requestTimeoutMs,
        connectTimeoutMs: requestTimeoutMs,
      })
      try {
        seen[`native ${fake.name}`] = await expectFastTypedFailure(
          async () => (await client.query('SELECT 1 AS x')).rows(),
          fake.error,
          fake.name,
        )
      } finally {
        await client.close()
        await server.close()
      }
      expect(guard.events).toEqual([])
    })
  }
})

interface HttpCase {
  readonly name: string
  readonly body: number[]
  /** End the body after these bytes (default), or keep the response open and silent. */
  readonly after?: 'end' | 'stall'
  readonly error: RegExp
}

const httpCases: HttpCase[] = [
  {
    name: '1 MiB of garbage',
    body: Array.from({ length: 1 << 20 }, (_, i) => (i * 2_654_435_761) >>> 24),
    error: /^(ProtocolError|ConnectionError)$/,
  },
  { name: 'a block of 2^60 columns', body: [...varUInt(huge), ...varUInt(1n)], error: /^ProtocolError$/ },
  { name: 'a block of 2^60 rows', body: [...varUInt(1n), ...varUInt(huge)], error: /^ProtocolError$/ },
  {
    name: 'a String value of 2^60 bytes',
    body: [...varUInt(1n), ...varUInt(1n), ...column('s', 'String'), ...varUInt(huge)],
    error: /^(ProtocolError|ConnectionError)$/,
  },
  {
    name: 'an Array of 2^50 elements in one row',
    body: [...varUInt(1n), ...varUInt(1n), ...column('a', 'Array(UInt8)'), ...u64(1n << 50n)],
    error: /^(ProtocolError|ConnectionError)$/,
  },
  {
    name: 'a block cut short',
    body: [...varUInt(1n), ...varUInt(3n), ...column('x', 'UInt32'), 1, 0, 0, 0, 2],
    error: /^(ProtocolError|ConnectionError)$/,
  },
  {
    name: 'a block cut short, then silence',
    body: [...varUInt(1n), ...varUInt(3n), ...column('x', 'UInt32'), 1, 0, 0, 0, 2],
    after: 'stall',
    error: /^TimeoutError$/,
  },
]

/** An HTTP fake: a ClickHouse 18.16 to the version probe, then the case's body with status 200. */
async function httpFake(fake: HttpCase): Promise<{ port: number; close(): Promise<void> }> {
  const server = createHttpServer((request, response) => {
    let sql = ''
    request.on('data', (chunk: Buffer) => {
      sql += chunk.toString('latin1')
    })
    request.on('end', () => {
      const query = `${decodeURIComponent(request.url ?? '')} ${sql}`
      if (query.includes('version()')) {
        response.writeHead(200, { 'Content-Type': 'text/tab-separated-values; charset=UTF-8' })
        response.end('18.16.1\tUTC\n')
        return
      }
      response.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'X-ClickHouse-Format': 'Native',
        'X-ClickHouse-Query-Id': 'hostile',
      })
      response.write(Buffer.from(fake.body))
      if (fake.after !== 'stall') response.end()
    })
  })
  const port = await listen(server)
  return {
    port,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

describe('http: a hostile server answering 200 with a Native body', () => {
  for (const fake of httpCases) {
    it(`fails fast with a typed error and bounded memory on ${fake.name}`, async () => {
      const server = await httpFake(fake)
      const client = createClient({
        url: `http://127.0.0.1:${server.port}`,
        requestTimeoutMs,
        connectTimeoutMs: requestTimeoutMs,
      })
      try {
        seen[`http ${fake.name}`] = await expectFastTypedFailure(
          async () => (await client.query('SELECT 1 AS x')).rows(),
          fake.error,
          fake.name,
        )
      } finally {
        await client.close()
        await server.close()
      }
      expect(guard.events).toEqual([])
    })
  }
})

// Bounded work (issue 29): servers that send what decodes to far more than it weighs. LZ4
// expands up to 255 times, and zero bytes decode as endless blocks of no columns over HTTP.
// Each case runs on both transports with the same bytes, must fail with a ProtocolError
// naming what it broke, and is measured: the process's RSS growth (peak, sampled) and CPU
// time, against limits a loaded 2-core machine meets. The limits are far below what the
// bytes ask for: 2.5 GB, 1 GiB, endless blocks.

/** Generous: a case settles within this even at a load average of 38 (wall time; the CPU limit is the measure). */
const boundedSettleMs = 60_000
const boundedCpuLimitMs = 10_000
const MiB = 1 << 20
/** BlockInfo as 54412 writes it (fields 1 and 2, then 0): only the native protocol has it. */
const blockInfo = [1, 0, 2, 0xff, 0xff, 0xff, 0xff, 0]
/** A block of one row whose String column declares `length` bytes. */
const stringHeader = (length: number) => [
  ...varUInt(1n),
  ...varUInt(1n),
  ...column('s', 'String'),
  ...varUInt(BigInt(length)),
]

interface BoundCase {
  readonly name: string
  /** The answer's bytes as a function of the transport: blocks (with BlockInfo over native). */
  readonly bytes: (
    transport: 'native' | 'http',
    withInfo: (block: readonly number[]) => number[],
  ) => Uint8Array[]
  /** Native: blocks in LZ4 frames; HTTP: the body in frames (`compress=1`). */
  readonly compressed: boolean
  readonly maxBlockBytes?: number
  readonly rssLimit: number
  /** The error's message, per transport. */
  readonly message: { readonly native: RegExp; readonly http: RegExp }
}

/** 20 frames of 128 MiB each, about 10.5 MB on the wire: 2.5 GB decoded. */
function greatestExpansion(prefix: readonly number[]): Uint8Array[] {
  const frames = [lz4Frame(lz4Zeros(prefix, 128 * MiB), 128 * MiB)]
  const zeros = lz4Frame(lz4Zeros([], 128 * MiB), 128 * MiB)
  for (let i = 1; i < 20; i++) frames.push(zeros)
  return frames
}

const boundCases: BoundCase[] = [
  {
    name: '10 MB of LZ4 frames of the greatest expansion (2.5 GB decoded) for a 1 GiB String',
    bytes: (_, withInfo) => greatestExpansion(withInfo(stringHeader(2 ** 30))),
    compressed: true,
    rssLimit: 600 * MiB,
    message: {
      native: /^a block of at least 10737418\d\d bytes is over maxBlockBytes \(268435456\)/,
      http: /^a block of at least 10737418\d\d bytes is over maxBlockBytes \(268435456\)/,
    },
  },
  {
    name: 'an LZ4 frame that declares 1 GiB (4 MB on the wire), maxBlockBytes 16 MiB',
    bytes: (_, withInfo) => [lz4Frame(lz4Zeros(withInfo(stringHeader(16)), 1024 * MiB), 1024 * MiB)],
    compressed: true,
    maxBlockBytes: 16 * MiB,
    rssLimit: 200 * MiB,
    message: {
      native:
        /^uncompressed size 1073741824 in compressed frame 0 at byte \d+ is over maxBlockBytes \(16777216\) with 0 bytes of the Data before it/,
      http: /^uncompressed size 1073741824 in compressed frame 0 at byte 0 is over maxBlockBytes \(16777216\)/,
    },
  },
  {
    name: 'an LZ4 frame that decodes to 8 MiB but declares 12 MiB',
    // 100 kB of literals first, so that 12 MiB is within what LZ4 could expand the payload to.
    bytes: (_, withInfo) => [
      lz4Frame(lz4Zeros([...withInfo(stringHeader(16)), ...new Array(100_000).fill(7)], 8 * MiB), 12 * MiB),
    ],
    compressed: true,
    maxBlockBytes: 16 * MiB,
    rssLimit: 200 * MiB,
    message: {
      native:
        /^cannot decompress LZ4 compressed frame 0 at byte \d+: LZ4 block decodes to 8388608 bytes, 12582912 were declared/,
      http: /^LZ4 compressed frame 0 at byte 0 decompressed to 8388608 bytes, the header says 12582912/,
    },
  },
  {
    name: 'a good block of 1000 rows, then 0.26 MB of LZ4 frames of zeros (64 MiB decoded)',
    bytes: (transport, withInfo) => {
      const zeros = lz4Frame(lz4Zeros([], 64 * MiB), 64 * MiB)
      const good = noneFrame(concat([withInfo([]), goodBlock(1000)]))
      // Over native the zeros are a second Data packet's body.
      return transport === 'native' ? [good, Uint8Array.from([1, ...text('')]), zeros] : [good, zeros]
    },
    compressed: true,
    rssLimit: 600 * MiB,
    message: {
      native: /^67108861 bytes left in a compressed frame after a Data body/,
      http: /^trailing bytes after the end of the data: \d+ bytes after a block of no columns/,
    },
  },
  {
    name: 'a good block of 1000 rows, then 8 MB of zero bytes, uncompressed',
    bytes: (_, withInfo) => [concat([withInfo([]), goodBlock(1000)]), new Uint8Array(8 * MiB)],
    compressed: false,
    rssLimit: 200 * MiB,
    message: {
      // Native has packets: the zeros are a Hello packet, which no server sends during a query.
      native: /^unexpected Hello packet during a query/,
      http: /^trailing bytes after the end of the data: \d+ bytes after a block of no columns/,
    },
  },
  {
    name: 'a String that declares 1 GiB, then 64 MB of it, maxBlockBytes 16 MiB',
    bytes: (_, withInfo) => [Uint8Array.from(withInfo(stringHeader(1024 * MiB))), new Uint8Array(64 * MiB)],
    compressed: false,
    maxBlockBytes: 16 * MiB,
    rssLimit: 200 * MiB,
    message: {
      native: /^a block of at least 10737418\d\d bytes is over maxBlockBytes \(16777216\)/,
      http: /^a block of at least 10737418\d\d bytes is over maxBlockBytes \(16777216\)/,
    },
  },
  {
    name: 'an Array(UInt64) of 2^29 elements in one row, then 64 MB of it, maxBlockBytes 16 MiB',
    bytes: (_, withInfo) => [
      Uint8Array.from(
        withInfo([...varUInt(1n), ...varUInt(1n), ...column('a', 'Array(UInt64)'), ...u64(1n << 29n)]),
      ),
      new Uint8Array(64 * MiB),
    ],
    compressed: false,
    maxBlockBytes: 16 * MiB,
    rssLimit: 200 * MiB,
    message: {
      // At least a byte per element: the lower bound the reader knows before the elements' type.
      native: /^a block of at least 5368709\d\d bytes is over maxBlockBytes \(16777216\)/,
      http: /^a block of at least 5368709\d\d bytes is over maxBlockBytes \(16777216\)/,
    },
  },
]

/** A fake that answers the query with `answer` and then stays silent (so only the bytes can fail the call). */
async function boundedFake(
  transport: 'native' | 'http',
  answer: Uint8Array[],
): Promise<{ port: number; close(): Promise<void> }> {
  if (transport === 'native') {
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on('error', () => {})
      let chunks = 0
      socket.on('data', () => {
        chunks++
        if (chunks === 1) socket.write(Buffer.from(serverHello))
        else if (chunks === 2) {
          socket.write(Buffer.from([1, ...text('')]))
          for (const part of answer) socket.write(part)
        }
      })
    })
    const port = await listen(server)
    return {
      port,
      close: async () => {
        for (const socket of sockets) socket.destroy()
        await new Promise((resolve) => server.close(resolve))
      },
    }
  }
  const server = createHttpServer((request, response) => {
    let sql = ''
    request.on('data', (chunk: Buffer) => {
      sql += chunk.toString('latin1')
    })
    request.on('end', () => {
      const url = request.url ?? ''
      const query = `${decodeURIComponent(url)} ${sql}`
      if (query.includes('version()')) {
        response.writeHead(200, { 'Content-Type': 'text/tab-separated-values; charset=UTF-8' })
        response.end('18.16.1\tUTC\n')
        return
      }
      if (/\bcompress=1\b/.test(url) && /^\s*SELECT 1\s*$/.test(sql)) {
        // The frames probe: the answer to SELECT 1 in a NONE frame, as 18.16 sends it.
        response.writeHead(200, { 'Content-Type': 'text/tab-separated-values; charset=UTF-8' })
        response.end(noneFrame(Buffer.from('1\n')))
        return
      }
      response.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'X-ClickHouse-Format': 'Native',
        'X-ClickHouse-Query-Id': 'hostile',
      })
      for (const part of answer) response.write(part)
    })
  })
  const port = await listen(server)
  return {
    port,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

interface Measured {
  readonly ms: number
  readonly cpuMs: number
  readonly rssPeakGrowthMB: number
  readonly wireMB: number
  readonly error: string
}
const measured: Record<string, Measured> = {}
afterAll(() => {
  console.log(`[hostile-bounds] ${JSON.stringify(measured)}`)
})

describe.each(['native', 'http'] as const)('%s: a server that sends more than it weighs', (transport) => {
  for (const fake of boundCases) {
    it(`rejects ${fake.name} with a ProtocolError, in bounded memory and CPU`, async () => {
      const withInfo = (block: readonly number[]) =>
        transport === 'native' ? [...blockInfo, ...block] : [...block]
      const answer = fake.bytes(transport, withInfo)
      const server = await boundedFake(transport, answer)
      const url =
        transport === 'native'
          ? `clickhouse://127.0.0.1:${server.port}?compression=${fake.compressed ? 'lz4' : 'none'}`
          : `http://127.0.0.1:${server.port}`
      const client = createClient({
        url,
        requestTimeoutMs: boundedSettleMs,
        connectTimeoutMs: boundedSettleMs,
        ...(transport === 'http' && fake.compressed ? { compression: { response: 'frames' as const } } : {}),
        ...(fake.maxBlockBytes === undefined ? {} : { maxBlockBytes: fake.maxBlockBytes }),
      })
      globalThis.gc?.()
      const rssBefore = process.memoryUsage().rss
      let rssPeak = rssBefore
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss)
      }, 5)
      const cpuBefore = process.cpuUsage()
      const started = Date.now()
      let failure: unknown
      try {
        await client.query('SELECT 1 AS x').then((result) => result.rows())
      } catch (error) {
        failure = error
      } finally {
        clearInterval(sampler)
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss)
        await client.close()
        await server.close()
      }
      const ms = Date.now() - started
      const cpu = process.cpuUsage(cpuBefore)
      const cpuMs = (cpu.user + cpu.system) / 1000
      const where = `${transport} ${fake.name}`
      measured[where] = {
        ms,
        cpuMs: Math.round(cpuMs),
        rssPeakGrowthMB: Math.round((rssPeak - rssBefore) / MiB),
        wireMB: Number((answer.reduce((sum, part) => sum + part.length, 0) / 1e6).toFixed(2)),
        error: String(failure),
      }
      expect(failure, where).toBeDefined()
      const error = failure as Error
      expect(error.name, `${where}: ${String(error)}`).toBe('ProtocolError')
      expect(error.message, where).toMatch(fake.message[transport])
      expect(rssPeak - rssBefore, where).toBeLessThan(fake.rssLimit)
      expect(cpuMs, where).toBeLessThan(boundedCpuLimitMs)
      expect(ms, where).toBeLessThan(boundedSettleMs)
      expect(guard.events).toEqual([])
    })
  }
})
