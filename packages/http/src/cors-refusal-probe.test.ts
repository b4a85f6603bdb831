import { afterEach, describe, expect, it, vi } from 'vitest'
import { explainCorsRefusal, pingUrl } from './cors-refusal-probe.js'

const failed = new TypeError('Failed to fetch')
const url = 'http://ch.example:8123/?query=SELECT+1&user=u&password=secret'

/** A fetch that records the URLs and init it was given, answering or failing as told. */
function fakeFetch(answer: 'opaque' | 'fails') {
  const calls: { url: string; init: RequestInit | undefined }[] = []
  const impl = (async (input: string, init?: RequestInit) => {
    calls.push({ url: input, init })
    if (answer === 'fails') throw new TypeError('Failed to fetch')
    return new Response(null, { status: 200 })
  }) as unknown as typeof fetch
  return { impl, calls }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('explainCorsRefusal', () => {
  it('pings beside the request path, without its query or credentials', () => {
    expect(pingUrl(url)).toBe('http://ch.example:8123/ping')
    expect(pingUrl('https://a:b@proxy.example/clickhouse/?query=x')).toBe(
      'https://proxy.example/clickhouse/ping',
    )
  })

  it('in a page, says the server is up and to check the credentials when /ping answers', async () => {
    vi.stubGlobal('document', {})
    const { impl, calls } = fakeFetch('opaque')
    const explained = (await explainCorsRefusal(failed, url, impl, new AbortController().signal)) as TypeError
    expect(explained).toBeInstanceOf(TypeError)
    expect(explained.message).toBe(
      'Failed to fetch: the server is up (it answered /ping) but its answer to this request had no CORS headers, as ClickHouse answers when it refuses the user name or password (or a request needing a CORS preflight it does not allow): check the user name and password',
    )
    expect(explained.cause).toBe(failed)
    expect(explained.message).not.toContain('secret')
    expect(
      calls.map((call) => [call.url, call.init?.mode, call.init?.credentials, call.init?.method]),
    ).toEqual([['http://ch.example:8123/ping', 'no-cors', 'omit', 'GET']])
  })

  it('leaves the error as it is when /ping fails too (the server is down), outside a page, or for other errors', async () => {
    vi.stubGlobal('document', {})
    const down = fakeFetch('fails')
    expect(await explainCorsRefusal(failed, url, down.impl, new AbortController().signal)).toBe(failed)
    const other = new Error('boom')
    const up = fakeFetch('opaque')
    expect(await explainCorsRefusal(other, url, up.impl, new AbortController().signal)).toBe(other)
    const aborted = new AbortController()
    aborted.abort()
    expect(await explainCorsRefusal(failed, url, up.impl, aborted.signal)).toBe(failed)
    vi.unstubAllGlobals()
    expect(await explainCorsRefusal(failed, url, up.impl, new AbortController().signal)).toBe(failed)
    expect(up.calls).toEqual([])
  })
})
