// The KILL QUERY sent after a timeout or an abort goes out again when it cannot reach the
// server (a refused or dropped connection), and not when the server answered it.
import { describe, expect, it } from 'vitest'
import { uint8Body } from '../test/support/native-bodies.js'
import {
  type BackendRequest,
  type BackendResponse,
  backendFailure,
  type HttpBackend,
  headersFrom,
} from './http-backend.js'
import { HttpTransport } from './http-transport.js'

const encoder = new TextEncoder()

/** A 200 (or `status`) answer whose body is `chunks`. */
function answer(chunks: Uint8Array[], status = 200): BackendResponse {
  const queue = [...chunks]
  return {
    status,
    headers: headersFrom({}),
    body: {
      async read() {
        return queue.shift()
      },
      cancel() {},
    },
  }
}

/** Answers the probe and SELECTs; each KILL QUERY with `kill(attempt)`, counted from 1. */
function backend(kill: (attempt: number) => BackendResponse): HttpBackend & { kills: number } {
  const state = {
    name: 'kills',
    kills: 0,
    async send(request: BackendRequest) {
      const text = typeof request.body === 'string' ? request.body : ''
      if (text.includes('version()')) {
        return answer([encoder.encode('25.11.1.1\tUTC\t0\t54500\tClickHouse 25.11.1.1\n')])
      }
      if (text.startsWith('KILL QUERY')) return kill(++state.kills)
      return answer([uint8Body(2)])
    },
    async close() {},
  }
  return state
}

const refused = () => {
  throw backendFailure('before-response', new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
}

function transport(http: HttpBackend) {
  return new HttpTransport({ url: 'http://ch.test:8123' }, () => http, { loadCodecs: async () => ({}) })
}

async function until(condition: () => boolean, limitMs: number): Promise<boolean> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > limitMs) return false
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return true
}

describe('the KILL QUERY of a stopped query', () => {
  it('is sent again while the server cannot be reached, until one arrives', async () => {
    const server = backend((attempt) => (attempt < 3 ? refused() : answer([])))
    const http = transport(server)
    const result = await http.query('SELECT 1')
    await result.cancel()
    expect(await until(() => server.kills >= 3, 5000)).toBe(true)
    // The third arrived: no fourth.
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(server.kills).toBe(3)
    await http.close()
  })

  it('is not sent again once the server answered it, even with an error', async () => {
    const server = backend(() => answer([encoder.encode('Code: 497. DB::Exception: not allowed')], 500))
    const http = transport(server)
    const result = await http.query('SELECT 1')
    await result.cancel()
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(server.kills).toBe(1)
    await http.close()
  })

  it('stops being sent when close() has waited its bound', async () => {
    const server = backend(refused)
    const http = transport(server)
    const result = await http.query('SELECT 1')
    // cancel() waits for the first attempt only, not for those after it (up to 10 s).
    const cancelling = Date.now()
    await result.cancel()
    expect(Date.now() - cancelling).toBeLessThan(2000)
    const started = Date.now()
    await http.close()
    // close() gives the KILLs up to 2 s, then ends them.
    expect(Date.now() - started).toBeLessThan(5000)
    const sent = server.kills
    expect(sent).toBeGreaterThanOrEqual(2)
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(server.kills).toBe(sent)
  })
})
