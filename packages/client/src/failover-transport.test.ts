// FailoverTransport's choice of endpoint, with stand-in transports that only record calls
// (the real failover against a live server and a dead port is in test/client-options.test.ts).
import { ClickHouseError, ConnectionError, type ServerInfo, type Transport } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { FailoverTransport } from './failover-transport.js'

function endpoint(name: string, calls: string[], failure?: () => Error): Transport {
  const info: ServerInfo = { name, version: '1', revision: 0, timezone: 'UTC', displayName: name }
  const answer = async <T>(value: T): Promise<T> => {
    calls.push(name)
    if (failure) throw failure()
    return value
  }
  return {
    kind: 'http',
    query: () => answer(undefined as never),
    insert: () => answer(undefined as never),
    command: () => answer(undefined as never),
    ping: () => answer(undefined),
    serverInfo: () => answer(info),
    close: async () => {},
  }
}

const refused = () => new ConnectionError('refused', { code: 'ECONNREFUSED' })

describe('FailoverTransport', () => {
  it('tries hosts in order and sets a refused one aside for the cooldown', async () => {
    const calls: string[] = []
    const failover = new FailoverTransport(
      [endpoint('a', calls, refused), endpoint('b', calls)],
      'in-order',
      60_000,
    )
    expect((await failover.serverInfo()).name).toBe('b')
    expect((await failover.serverInfo()).name).toBe('b')
    expect(calls).toEqual(['a', 'b', 'b'])
  })

  it('rotates hosts with round-robin', async () => {
    const calls: string[] = []
    const failover = new FailoverTransport(
      [endpoint('a', calls), endpoint('b', calls), endpoint('c', calls)],
      'round-robin',
      60_000,
    )
    for (let i = 0; i < 4; i++) await failover.ping()
    expect(calls).toEqual(['a', 'b', 'c', 'a'])
  })

  it('does not move on after a server error or a failure once the request was sent', async () => {
    const calls: string[] = []
    const serverError = () => new ClickHouseError({ code: 60, type: 'DB::Exception', message: 'no table' })
    const failover = new FailoverTransport(
      [endpoint('a', calls, serverError), endpoint('b', calls)],
      'in-order',
      1,
    )
    await expect(failover.ping()).rejects.toBeInstanceOf(ClickHouseError)
    const reset = () => new ConnectionError('reset', { code: 'ECONNRESET' })
    const midway = new FailoverTransport([endpoint('c', calls, reset), endpoint('d', calls)], 'in-order', 1)
    await expect(midway.ping()).rejects.toMatchObject({ code: 'ECONNRESET' })
    expect(calls).toEqual(['a', 'c'])
  })

  it('raises the last refusal when no host answers', async () => {
    const calls: string[] = []
    const failover = new FailoverTransport(
      [endpoint('a', calls, refused), endpoint('b', calls, refused)],
      'random',
      1,
    )
    await expect(failover.ping()).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    expect(calls.sort()).toEqual(['a', 'b'])
  })

  it('brings a refused host back once its cooldown is over', async () => {
    const calls: string[] = []
    let now = 0
    let down = true
    const flaky = endpoint('a', calls)
    const failover = new FailoverTransport(
      [
        {
          ...flaky,
          ping: async () => {
            calls.push('a')
            if (down) throw refused()
          },
        },
        endpoint('b', calls),
      ],
      'in-order',
      1000,
      { now: () => now },
    )
    await failover.ping()
    now = 999
    await failover.ping()
    down = false
    now = 1000
    await failover.ping()
    await failover.ping()
    expect(calls).toEqual(['a', 'b', 'b', 'a', 'a'])
  })

  it('takes ClickHouse load_balancing names, first_or_random keeping to the first while it answers', async () => {
    const calls: string[] = []
    let now = 0
    let down = false
    const a = endpoint('a', calls)
    const first: Transport = { ...a, ping: async () => (down ? Promise.reject(refused()) : a.ping()) }
    const failover = new FailoverTransport(
      [first, endpoint('b', calls), endpoint('c', calls)],
      'first_or_random',
      1000,
      { now: () => now, random: () => 0 },
    )
    await failover.ping()
    await failover.ping()
    down = true
    // a fails and is set aside; the others in the dice's order: c (swapped first), then b.
    await failover.ping()
    await failover.ping()
    now = 1000
    down = false
    await failover.ping()
    expect(calls).toEqual(['a', 'a', 'c', 'c', 'a'])
  })

  it('tells of hosts set aside and restored, once per change', async () => {
    const calls: string[] = []
    const events: string[] = []
    let now = 0
    let down = true
    const a = endpoint('a', calls)
    const first: Transport = { ...a, ping: async () => (down ? Promise.reject(refused()) : a.ping()) }
    const b = endpoint('b', calls)
    const failover = new FailoverTransport(
      [first, b],
      'in-order',
      1000,
      { now: () => now },
      {
        onSetAside: (host, error) =>
          events.push(`aside ${host === first ? 'a' : 'b'} ${(error as Error).message}`),
        onRestored: (host) => events.push(`back ${host === first ? 'a' : 'b'}`),
      },
    )
    await failover.ping()
    now = 500
    // Still cooling down: b at once, no second event.
    await failover.ping()
    now = 1000
    // The cool-down is over: a is tried, fails, and is set aside again (a new change).
    await failover.ping()
    now = 2000
    down = false
    await failover.ping()
    expect(calls).toEqual(['b', 'b', 'b', 'a'])
    expect(events).toEqual(['aside a refused', 'aside a refused', 'back a'])
  })

  it('swaps its endpoints, keeping the cool-down of one still listed and closing dropped ones last', async () => {
    const calls: string[] = []
    const closed: string[] = []
    const closing = (name: string, failure?: () => Error): Transport => ({
      ...endpoint(name, calls, failure),
      close: async () => {
        closed.push(name)
      },
    })
    const a = closing('a', refused)
    const b = closing('b')
    const c = closing('c')
    const failover = new FailoverTransport([a, b], 'in-order', 60_000, { now: () => 0 })
    await failover.ping()
    failover.setTransports([a, c])
    expect(failover.transports).toEqual([a, c])
    await failover.ping()
    expect(calls).toEqual(['a', 'b', 'c'])
    expect(closed).toEqual([])
    expect(() => failover.setTransports([])).toThrow('a failover transport needs at least one endpoint')
    await failover.close()
    expect(closed.sort()).toEqual(['a', 'b', 'c'])
  })
})
