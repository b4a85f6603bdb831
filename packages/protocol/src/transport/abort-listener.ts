/*
 * One 'abort' listener per AbortSignal, fanning out to every operation that shares it. A
 * signal handed to many concurrent queries (one per page, one per request handler) would
 * otherwise carry a listener per query, and Node warns past 10 on one signal
 * (MaxListenersExceededWarning) although nothing leaks. Raising the signal's limit would
 * only hide a real leak; one listener per signal needs no limit.
 */

interface Subscription {
  readonly listeners: Set<() => void>
  readonly onAbort: () => void
}

const subscriptions = new WeakMap<AbortSignal, Subscription>()

/**
 * Calls `listener` once when `signal` fires, like `addEventListener('abort', listener,
 * { once: true })` (nothing happens for a signal that already fired), but however many
 * listeners share the signal, it carries one. Returns the function that stops listening:
 * call it when the operation settles, so that finished operations hold nothing.
 *
 * @example
 * ```ts
 * const stop = listenForAbort(signal, () => request.cancel())
 * try {
 *   return await request.done
 * } finally {
 *   stop()
 * }
 * ```
 */
export function listenForAbort(signal: AbortSignal, listener: () => void): () => void {
  let subscription = subscriptions.get(signal)
  if (!subscription) {
    const listeners = new Set<() => void>()
    const onAbort = () => {
      subscriptions.delete(signal)
      for (const each of [...listeners]) {
        // One stopped by an earlier listener of this abort is not called (as EventTarget does).
        if (!listeners.has(each)) continue
        try {
          each()
        } catch (error) {
          // As an event listener's exception is: reported, without stopping the others.
          queueMicrotask(() => {
            throw error
          })
        }
      }
      listeners.clear()
    }
    subscription = { listeners, onAbort }
    subscriptions.set(signal, subscription)
    signal.addEventListener('abort', onAbort, { once: true })
  }
  // A wrapper per call, so that one function registered twice is two registrations.
  const entry = () => listener()
  const { listeners, onAbort } = subscription
  listeners.add(entry)
  return () => {
    if (!listeners.delete(entry) || listeners.size > 0) return
    if (subscriptions.get(signal)?.listeners === listeners) subscriptions.delete(signal)
    signal.removeEventListener('abort', onAbort)
  }
}
