import { describe, expect, it } from 'vitest'
import { AbortError, TimeoutError } from '../errors/index.js'
import { CallDeadline } from './call-deadline.js'

const errors = {
  timeout: (limitMs: number) => new TimeoutError('request', limitMs, `late after ${limitMs} ms`),
  abort: (reason: unknown) => new AbortError(reason, 'stopped'),
  closed: () => new AbortError(undefined, 'closed'),
}

describe('CallDeadline', () => {
  it('counts the time left from its start on the clock given', () => {
    let now = 100
    const deadline = new CallDeadline(50, undefined, errors, undefined, () => now)
    expect(deadline.remaining()).toBe(50)
    now = 130.2
    expect(deadline.remaining()).toBe(20)
    expect(deadline.expired).toBe(false)
    now = 150
    expect(deadline.expired).toBe(true)
    expect(deadline.remaining()).toBe(1)
    expect(() => deadline.check()).toThrow('late after 50 ms')
  })

  it("counts from the call's start when given one, and its error still names the whole limit", () => {
    let now = 100
    // A call that began at 70 (its sql`` fragment waited for the server's version first).
    const deadline = new CallDeadline(50, undefined, errors, undefined, () => now, 70)
    expect(deadline.remaining()).toBe(20)
    now = 120
    expect(deadline.expired).toBe(true)
    expect(() => deadline.check()).toThrow('late after 50 ms')
  })

  it('has no limit with 0', () => {
    const deadline = new CallDeadline(0, undefined, errors, undefined, () => 1e12)
    expect(deadline.remaining()).toBe(0)
    expect(deadline.expired).toBe(false)
    expect(() => deadline.check()).not.toThrow()
  })

  it('resolves with the promise waited for, and leaves it running when the time runs out', async () => {
    const deadline = new CallDeadline(20, undefined, errors, undefined)
    await expect(deadline.wait(Promise.resolve(7))).resolves.toBe(7)
    let stopped = 0
    const never = new Promise<number>(() => {})
    await expect(deadline.wait(never, () => stopped++)).rejects.toThrow('late after 20 ms')
    expect(stopped).toBe(1)
  })

  it('ends a wait with the abort error when the signal fires, running stop once', async () => {
    const controller = new AbortController()
    const deadline = new CallDeadline(0, controller.signal, errors, undefined)
    let stopped = 0
    let fail: (error: Error) => void = () => {}
    const work = new Promise<number>((_, reject) => {
      fail = reject
    })
    const waiting = deadline.wait(work, () => stopped++)
    controller.abort('enough')
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError', message: 'stopped' })
    // The work fails later, as a closed socket does: nothing more happens.
    fail(new Error('socket closed'))
    await Promise.resolve()
    expect(stopped).toBe(1)
    // Already aborted: the wait fails at once, and the work is stopped.
    await expect(deadline.wait(Promise.reject(new Error('x')), () => stopped++)).rejects.toMatchObject({
      message: 'stopped',
    })
    expect(stopped).toBe(2)
  })

  it('ends a wait with the closed error when the transport closes', async () => {
    const closing = new AbortController()
    const deadline = new CallDeadline(0, undefined, errors, closing.signal)
    const waiting = deadline.wait(new Promise(() => {}))
    closing.abort()
    await expect(waiting).rejects.toMatchObject({ message: 'closed' })
    expect(() => deadline.check()).toThrow('closed')
  })

  it('watches work that runs on its own: once, with the error of what ended it', async () => {
    const controller = new AbortController()
    const ends: string[] = []
    const timed = new CallDeadline(10, undefined, errors, undefined)
    timed.watch((error) => ends.push(error.message))
    const aborted = new CallDeadline(0, controller.signal, errors, undefined)
    aborted.watch((error) => ends.push(error.message))
    controller.abort()
    controller.abort()
    const unwatched = new CallDeadline(10, controller.signal, errors, undefined)
    unwatched.watch((error) => ends.push(`unexpected ${error.message}`))()
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(ends).toEqual(['stopped', 'late after 10 ms'])
  })

  it('names the request and its query id in its errors', () => {
    const closing = new AbortController()
    const deadline = CallDeadline.forRequest('insert', 'q1', 10, undefined, closing.signal)
    expect(deadline.timeoutError()).toMatchObject({
      name: 'TimeoutError',
      timeout: 'query',
      timeoutMs: 10,
      message: 'insert q1 ran longer than 10 ms',
    })
    expect(deadline.abortError()).toMatchObject({ name: 'AbortError', message: 'insert q1 was aborted' })
    closing.abort()
    expect(() => deadline.check()).toThrow('insert q1 was aborted: the client is closed')
    const connect = CallDeadline.forCall('connect', 5, undefined, undefined, (ms) => `no Hello in ${ms} ms`)
    expect(connect.timeoutError()).toMatchObject({
      timeout: 'connect',
      timeoutMs: 5,
      message: 'no Hello in 5 ms',
    })
  })
})
