// Fuzzing the native protocol reader: the real PacketPump (with NativeQueryStream and a
// ResultSet on top, as the client reads a result) over byte streams a real 18.16 server
// sent (and one built at the client's own revision, 54460), mutated, truncated and cut
// into random network chunks. Every case must decode or fail with a clickwire error,
// within a deadline.
import { ConnectionError, loadCodecs, ProtocolError } from '@clickwire/protocol'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installProcessGuard } from '../guards/process-guard.js'
import {
  applyMutations,
  leb128,
  mutationArbitrary,
  splitArbitrary,
  splitPositions,
} from './byte-mutations.js'
import { modernNativeStream } from './constructed-streams.js'
import {
  FuzzTally,
  fuzzRuns,
  fuzzSeed,
  fuzzTimeoutMs,
  reportTallies,
  withoutStackTraces,
} from './fuzz-budget.js'
import { nativeRecordings, recordedBytes } from './recorded-streams.js'
import { splitAt } from './scripted-input.js'
import { decodeNativeStream, nodeCodecs, type StreamShape } from './stream-decoding.js'

/** A stream to start cases from: recorded from 18.16, or constructed at revision 54460. */
interface Seed {
  readonly name: string
  readonly compression: 'none' | 'lz4'
  readonly bytes: Uint8Array
}

const guard = installProcessGuard()
const restoreStackTraces = withoutStackTraces()
const tallies: FuzzTally[] = []
const recordings: Seed[] = nativeRecordings.map(({ name, compression }) => ({
  name,
  compression,
  bytes: recordedBytes(name),
}))
const references = new Map<string, StreamShape>()
/** A real Hello from the server, to put random bytes behind. */
let hello = new Uint8Array(0)

/** Picks a seed; built lazily, once the constructed seeds joined the recordings. */
const seedArbitrary = () => fc.constantFrom(...recordings)
const scriptArbitrary = fc.record({
  splits: splitArbitrary,
  drained: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
  end: fc.constantFrom('close' as const, 'reset' as const),
})
const timeout = fuzzTimeoutMs

function tally(property: string): FuzzTally {
  const created = new FuzzTally(property)
  tallies.push(created)
  return created
}

function decode(
  bytes: Uint8Array,
  seed: Pick<Seed, 'compression'>,
  script: { splits: number[]; drained: boolean[]; end: 'close' | 'reset' },
  values = false,
): Promise<StreamShape> {
  return decodeNativeStream(splitAt(bytes, splitPositions(script.splits, bytes.length)), seed.compression, {
    drained: script.drained,
    end: script.end,
    values,
  })
}

beforeAll(async () => {
  // At clickwire's revision (54492) String columns take the size-stream codec, which loads on
  // demand; the constructed stream is encoded synchronously, so it is loaded first.
  await loadCodecs()
  recordings.push(
    { name: 'native-modern-constructed', compression: 'none', bytes: modernNativeStream() },
    {
      name: 'native-modern-constructed-lz4',
      compression: 'lz4',
      bytes: modernNativeStream(await nodeCodecs()),
    },
  )
  for (const { name, compression, bytes } of recordings) {
    references.set(name, await decodeNativeStream([bytes], compression, { values: true }))
  }
  const first = recordings[0]!
  // The Hello is everything before the query's first packet; the pump tells by decoding it.
  for (let end = 1; end <= first.bytes.length; end++) {
    const shape = await decodeNativeStream([first.bytes.subarray(0, end)], 'none')
    if (shape.events[0] === 'Hello') {
      hello = first.bytes.slice(0, end)
      break
    }
  }
})

afterAll(() => {
  restoreStackTraces()
  guard.dispose()
  reportTallies('fuzz-native', tallies)
})

describe('native packet reader fuzzing', () => {
  it('decodes every seed completely, as the server sent it', () => {
    expect(recordings).toHaveLength(nativeRecordings.length + 2)
    for (const { name } of recordings) {
      const reference = references.get(name)!
      const last = name.includes('exception') ? 'ClickHouseError 395' : 'EndOfStream'
      expect(reference.events.at(-1), name).toBe(last)
      expect(reference.values.length).toBeGreaterThan(0)
    }
    expect(hello.length).toBeGreaterThan(10)
  })

  it('a Data packet that announces rows without columns is refused, not expanded into rows', async () => {
    // The native twin of what the HTTP fuzzer found: no bytes are needed to announce rows
    // that no column holds, and turning them into row objects exhausted the heap (fatal).
    const data = [1, 0, ...[1, 0, 2, 0xff, 0xff, 0xff, 0xff, 0], 0x00, ...leb128(247_430_442n)]
    const shape = await decodeNativeStream([hello, Uint8Array.from(data)], 'none')
    expect(ProtocolError.isInstance(shape.error), shape.events.join(' | ')).toBe(true)
  })

  it('mutated recordings decode or fail with a typed error', { timeout }, async () => {
    const cases = tally('native: mutated recordings')
    await fc.assert(
      fc.asyncProperty(
        seedArbitrary(),
        fc.array(mutationArbitrary, { minLength: 1, maxLength: 4 }),
        scriptArbitrary,
        async (seed, mutations, script) => {
          await cases.check(() => decode(applyMutations(seed.bytes, mutations), seed, script))
        },
      ),
      { numRuns: fuzzRuns(40_000), seed: fuzzSeed },
    )
    expect(guard.events).toEqual([])
  })

  it('random bytes, alone or after a real Hello, decode or fail with a typed error', {
    timeout,
  }, async () => {
    const cases = tally('native: random streams')
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.uint8Array({ maxLength: 600 }),
        scriptArbitrary,
        async (afterHello, random, script) => {
          const bytes = afterHello ? Uint8Array.from([...hello, ...random]) : random
          await cases.check(() => decode(bytes, { compression: 'none' }, script))
        },
      ),
      { numRuns: fuzzRuns(8_000), seed: fuzzSeed },
    )
    expect(guard.events).toEqual([])
  })

  it('however the network cuts a recording into chunks, it decodes to the same result', {
    timeout,
  }, async () => {
    const cases = tally('native: split recordings')
    await fc.assert(
      fc.asyncProperty(seedArbitrary(), scriptArbitrary, async (seed, script) => {
        const shape = await cases.check(() => decode(seed.bytes, seed, script, true))
        const reference = references.get(seed.name)!
        expect(shape.values).toEqual(reference.values)
        expect(shape.events).toEqual(reference.events)
      }),
      { numRuns: fuzzRuns(7_000), seed: fuzzSeed },
    )
    expect(guard.events).toEqual([])
  })

  it('a recording cut short never ends like a complete one', { timeout }, async () => {
    const cases = tally('native: truncated recordings')
    await fc.assert(
      fc.asyncProperty(seedArbitrary(), fc.nat(), scriptArbitrary, async (seed, cut, script) => {
        const truncated = seed.bytes.subarray(0, cut % seed.bytes.length)
        const shape = await cases.check(() => decode(truncated, seed, script, true))
        expect(ConnectionError.isInstance(shape.error), shape.events.join(' | ')).toBe(true)
        const reference = references.get(seed.name)!
        expect(reference.values.slice(0, shape.values.length)).toEqual(shape.values)
      }),
      { numRuns: fuzzRuns(5_000), seed: fuzzSeed },
    )
    expect(guard.events).toEqual([])
  })
})
