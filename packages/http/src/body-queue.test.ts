import { describe, expect, it } from 'vitest'
import { BodyQueue } from './body-queue.js'

function flow() {
  const events: string[] = []
  return {
    events,
    pause: () => events.push('pause'),
    resume: () => events.push('resume'),
    cancel: (reason: unknown) => events.push(`cancel ${String(reason)}`),
  }
}

describe('BodyQueue', () => {
  it('pauses the producer above the high-water mark and resumes at half', async () => {
    const control = flow()
    const queue = new BodyQueue(control, 10)
    for (let i = 0; i < 4; i++) queue.push(new Uint8Array(4))
    expect(control.events).toEqual(['pause'])
    expect(queue.queued).toBe(16)
    await queue.read()
    await queue.read()
    expect(control.events).toEqual(['pause'])
    await queue.read()
    expect(control.events).toEqual(['pause', 'resume'])
  })

  it('hands over chunks in order, then the end', async () => {
    const queue = new BodyQueue(flow())
    const waiting = queue.read()
    queue.push(Uint8Array.of(1))
    queue.push(Uint8Array.of(2))
    queue.push(Uint8Array.of(3))
    queue.end()
    expect(await waiting).toEqual(Uint8Array.of(1))
    expect(await queue.readBatch()).toEqual([Uint8Array.of(2), Uint8Array.of(3)])
    expect(await queue.read()).toBeUndefined()
    expect(await queue.readBatch()).toBeUndefined()
  })

  it('gathers what arrives in one tick into one batch', async () => {
    const queue = new BodyQueue(flow())
    const batch = queue.readBatch()
    queue.push(Uint8Array.of(1))
    queue.push(Uint8Array.of(2))
    expect(await batch).toEqual([Uint8Array.of(1), Uint8Array.of(2)])
  })

  it('delivers what arrived before a failure, then the failure', async () => {
    const queue = new BodyQueue(flow())
    queue.push(Uint8Array.of(9))
    queue.fail(new Error('reset'))
    expect(await queue.read()).toEqual(Uint8Array.of(9))
    await expect(queue.read()).rejects.toThrow('reset')
    await expect(queue.readBatch()).rejects.toThrow('reset')
  })

  it('cancel drops queued chunks, tells the producer and fails a waiting reader', async () => {
    const control = flow()
    const queue = new BodyQueue(control)
    const waiting = queue.readBatch()
    queue.cancel('stop')
    await expect(waiting).rejects.toBe('stop')
    expect(control.events).toEqual(['cancel stop'])
    queue.push(Uint8Array.of(1))
    await expect(queue.read()).rejects.toBe('stop')
  })
})
