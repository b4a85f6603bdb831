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

const guard = installProcessGuard()
afterAll(() => guard.dispose())

const requestTimeoutMs = 1500
/** Settling later than this means the client waited for something it should not have. */
const settleWithinMs = requestTimeoutMs + 1000
/** More RSS growth than this for one case means the client believed a length. */
const rssLimitBytes = 96 * 1024 * 1024

function varUInt(value: bigint): number[] {
  const out: number[] = []
  let rest = value
  do {
    let byte = Number(rest & 0x7fn)
    rest >>= 7n
    if (rest > 0n) byte |= 0x80
    out.push(byte)
  } while (rest > 0n)
  return out
}
const text = (value: string) => [...varUInt(BigInt(Buffer.byteLength(value))), ...Buffer.from(value)]
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
