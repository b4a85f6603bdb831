// Shared pieces of the micro-benchmarks: realistic 1 MiB inputs and a timer.
import { performance } from 'node:perf_hooks'

/** 1 MiB of sequential UInt64 values, as a Native UInt64 column (e.g. `number` from system.numbers). */
export function sequentialUInt64(bytes = 1 << 20) {
  const values = new BigUint64Array(bytes / 8)
  for (let i = 0; i < values.length; i++) values[i] = BigInt(i + 1_000_000)
  return new Uint8Array(values.buffer)
}

const carriers = ['WN', 'AA', 'DL', 'UA', 'OO', 'EV', 'B6', 'AS', 'NK', 'F9', 'HA', 'MQ', 'YX', '9E']
const cities = [
  'Atlanta, GA',
  'Chicago, IL',
  'Dallas/Fort Worth, TX',
  'Denver, CO',
  'Los Angeles, CA',
  'New York, NY',
  'San Francisco, CA',
  'Seattle, WA',
  'Las Vegas, NV',
  'Orlando, FL',
  'Charlotte, NC',
  'Phoenix, AZ',
  'Houston, TX',
  'Miami, FL',
  'Boston, MA',
  'Minneapolis, MN',
  'Detroit, MI',
  'Philadelphia, PA',
]

/**
 * About 1 MiB of ontime-like text columns as Native String data (VarUInt length + bytes):
 * carrier codes, tail numbers, city names and dates, with a deterministic pseudo-random mix.
 */
export function ontimeStrings(bytes = 1 << 20) {
  const out = new Uint8Array(bytes)
  const encoder = new TextEncoder()
  let seed = 12345
  const next = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return (seed >>> 8) % n
  }
  let at = 0
  for (let row = 0; ; row++) {
    const day = 1 + next(28)
    const fields = [
      carriers[next(carriers.length)],
      `N${100 + next(900)}${carriers[next(carriers.length)]}`,
      cities[next(cities.length)],
      cities[next(cities.length)],
      `2017-${String(1 + (row % 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      String(next(2400)).padStart(4, '0'),
    ]
    for (const field of fields) {
      const encoded = encoder.encode(field)
      if (at + 1 + encoded.length > bytes) return out.subarray(0, at)
      out[at++] = encoded.length
      out.set(encoded, at)
      at += encoded.length
    }
  }
}

/** Pseudo-random bytes (what compressed payloads look like to a checksum). */
export function randomBytes(bytes = 1 << 20) {
  const out = new Uint8Array(bytes)
  let seed = 987654321
  for (let i = 0; i < bytes; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0
    out[i] = seed >>> 24
  }
  return out
}

/**
 * Runs `fn` (which processes `bytes` bytes per call) in rounds of about `roundMs` and
 * returns the best round's throughput in bytes per second: the least disturbed by the
 * other processes on a shared machine.
 */
export function throughput(fn, bytes, { rounds = 7, roundMs = 150 } = {}) {
  for (let i = 0; i < 3; i++) fn()
  let best = 0
  for (let round = 0; round < rounds; round++) {
    let calls = 0
    const started = performance.now()
    let elapsed = 0
    do {
      fn()
      calls++
      elapsed = performance.now() - started
    } while (elapsed < roundMs)
    best = Math.max(best, (calls * bytes) / (elapsed / 1000))
  }
  return best
}

export const gbps = (bytesPerSecond) => `${(bytesPerSecond / 1e9).toFixed(2)} GB/s`
