import { describe, expect, it } from 'vitest'
import { AbortError } from './abort-error.js'
import { requestAbortError, requestClosedError, requestTimeoutError } from './request-errors.js'
import { TimeoutError } from './timeout-error.js'

describe('the words both transports end a request with', () => {
  it('name the request and its query id', () => {
    const timeout = requestTimeoutError('query', 'q-1', 800)
    expect(timeout).toBeInstanceOf(TimeoutError)
    expect(timeout).toMatchObject({
      timeout: 'query',
      timeoutMs: 800,
      message: 'query q-1 ran longer than 800 ms',
    })
    const reason = new Error('user gave up')
    const abort = requestAbortError('insert', 'i-1', reason)
    expect(abort).toBeInstanceOf(AbortError)
    expect(abort).toMatchObject({ reason, message: 'insert i-1 was aborted' })
    expect(requestClosedError('query', 'q-2').message).toBe('query q-2 was aborted: the client is closed')
  })
})
