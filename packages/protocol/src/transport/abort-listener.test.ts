import { describe, expect, it } from 'vitest'
import { listenForAbort } from './abort-listener.js'

/** How many 'abort' listeners a signal carries, counted through its own add/remove calls. */
function counted(signal: AbortSignal): { readonly count: number } {
  let count = 0
  const add = signal.addEventListener.bind(signal)
  const remove = signal.removeEventListener.bind(signal)
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    count++
    add(...args)
  }) as typeof add
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    count--
    remove(...args)
  }) as typeof remove
  return {
    get count() {
      return count
    },
  }
}

describe('listenForAbort', () => {
  it('calls every listener once on abort, through one listener on the signal', () => {
    const controller = new AbortController()
    const listeners = counted(controller.signal)
    const calls: number[] = []
    for (let i = 0; i < 20; i++) listenForAbort(controller.signal, () => calls.push(i))
    expect(listeners.count).toBe(1)
    controller.abort()
    controller.abort()
    expect(calls).toEqual(Array.from({ length: 20 }, (_, i) => i))
  })

  it('removes the signal listener once the last operation stops listening', () => {
    const controller = new AbortController()
    const listeners = counted(controller.signal)
    const calls: string[] = []
    const stopA = listenForAbort(controller.signal, () => calls.push('a'))
    const stopB = listenForAbort(controller.signal, () => calls.push('b'))
    stopA()
    stopA()
    expect(listeners.count).toBe(1)
    stopB()
    expect(listeners.count).toBe(0)
    // Listening again after everything stopped works the same.
    listenForAbort(controller.signal, () => calls.push('c'))
    expect(listeners.count).toBe(1)
    controller.abort()
    expect(calls).toEqual(['c'])
  })

  it('keeps two registrations of one function apart, and lets a listener stop another', () => {
    const controller = new AbortController()
    const calls: string[] = []
    const listener = () => calls.push('x')
    let stopSecond = () => {}
    listenForAbort(controller.signal, () => stopSecond())
    const stopFirst = listenForAbort(controller.signal, listener)
    stopSecond = listenForAbort(controller.signal, listener)
    stopFirst()
    controller.abort()
    // The first was stopped before the abort; the second stopped by the first listener,
    // which ran before it: as with addEventListener, a removed listener is not called.
    expect(calls).toEqual([])
  })

  it('reports an exception from one listener without skipping the others', async () => {
    const controller = new AbortController()
    const calls: string[] = []
    const reported: unknown[] = []
    const onError = (error: unknown) => reported.push(error)
    process.prependListener('uncaughtException', onError)
    try {
      listenForAbort(controller.signal, () => {
        throw new Error('boom')
      })
      listenForAbort(controller.signal, () => calls.push('after'))
      controller.abort()
      await new Promise((resolve) => setTimeout(resolve, 0))
    } finally {
      process.off('uncaughtException', onError)
    }
    expect(calls).toEqual(['after'])
    expect(reported).toEqual([new Error('boom')])
  })
})
