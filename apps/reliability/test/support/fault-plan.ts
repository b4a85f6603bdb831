import type { Direction, Fault } from '@clickwire/testing'

/** CLICKWIRE_LONG=1: ten times the random offsets per fault kind. */
export const longMode = process.env.CLICKWIRE_LONG === '1'

/**
 * The seed of the random byte offsets: CLICKWIRE_FAULT_SEED replays a run; otherwise a
 * fresh one, printed, so a failing offset can be replayed.
 */
export const faultSeed = process.env.CLICKWIRE_FAULT_SEED
  ? Number(process.env.CLICKWIRE_FAULT_SEED)
  : Math.floor(Math.random() * 2 ** 31)

/** A small seeded generator (mulberry32): the same seed gives the same offsets. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

/** A fault whose byte offset is a fraction of the traffic a clean run of the same operation makes. */
export type FaultSpec =
  | {
      readonly kind: 'cutAfter' | 'resetAfter' | 'stallAfter'
      readonly direction: Direction
      readonly fraction: number
    }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'fragment'; readonly delayMs?: number }
  | { readonly kind: 'refuse' }

/** Bytes a clean run forwarded, per direction. */
export type Traffic = Readonly<Record<Direction, number>>

/** The fault for a spec, with offsets scaled to `traffic`. */
export function resolveFault(spec: FaultSpec, traffic: Traffic): Fault {
  switch (spec.kind) {
    case 'cutAfter':
    case 'resetAfter':
    case 'stallAfter':
      return {
        [spec.kind]: {
          direction: spec.direction,
          bytes: Math.floor(traffic[spec.direction] * spec.fraction),
        },
      }
    case 'delay':
      return { delayMs: spec.ms }
    case 'fragment':
      return { fragment: true, delayMs: spec.delayMs }
    case 'refuse':
      return { refuse: true }
  }
}

/** A label for test names: `cutAfter toClient 37%`. */
export function describeSpec(spec: FaultSpec): string {
  switch (spec.kind) {
    case 'cutAfter':
    case 'resetAfter':
    case 'stallAfter':
      return `${spec.kind} ${spec.direction} at ${(spec.fraction * 100).toFixed(1)}% of the clean traffic`
    case 'delay':
      return `delay ${spec.ms} ms per chunk`
    case 'fragment':
      return spec.delayMs ? `1-byte fragments, delayed ${spec.delayMs} ms` : '1-byte fragments'
    case 'refuse':
      return 'refused connection'
  }
}

/**
 * The faults one operation meets, in both directions: `offsets` cuts and half as many
 * resets at random offsets, `stalls` stalls, then delay, fragmentation and refusal.
 */
export function faultPlan(random: () => number, offsets: number, stalls: number): FaultSpec[] {
  const plan: FaultSpec[] = []
  for (const direction of ['toClient', 'toServer'] as const) {
    for (let i = 0; i < offsets; i++) plan.push({ kind: 'cutAfter', direction, fraction: random() })
    for (let i = 0; i < Math.ceil(offsets / 2); i++)
      plan.push({ kind: 'resetAfter', direction, fraction: random() })
    for (let i = 0; i < stalls; i++) plan.push({ kind: 'stallAfter', direction, fraction: random() })
  }
  plan.push(
    { kind: 'delay', ms: 20 },
    { kind: 'fragment' },
    { kind: 'fragment', delayMs: 5 },
    { kind: 'refuse' },
  )
  return plan
}
