/** How to choose among several hosts: `in-order` (failover), `round-robin`, or `random`. */
export type HostStrategy = 'in-order' | 'round-robin' | 'random'

/** What a {@link HostSelector} reads instead of the real clock and dice, for tests. */
export interface HostSelectorSources {
  /** Milliseconds now (default `Date.now`). */
  readonly now?: (() => number) | undefined
  /** A number in [0, 1) (default `Math.random`). */
  readonly random?: (() => number) | undefined
}

const strategies: readonly string[] = ['in-order', 'round-robin', 'random']

/** Whether `value` names a {@link HostStrategy}. */
export function isHostStrategy(value: unknown): value is HostStrategy {
  return typeof value === 'string' && strategies.includes(value)
}

/**
 * Orders hosts (any value: an address, a transport per endpoint) for the next attempt, for
 * every transport. Hosts that failed recently are set aside for a cool-down: they are tried
 * only after every healthy host, the one whose cool-down ends first leading, so one dead
 * server costs a failed attempt now and then, not one on every request; when every host is
 * cooling down, all are still offered. No I/O: the caller reports each outcome.
 */
export class HostSelector<Host> {
  #next = 0
  readonly #failedUntil = new Map<Host, number>()
  readonly #now: () => number
  readonly #random: () => number

  constructor(
    readonly hosts: readonly Host[],
    readonly strategy: HostStrategy,
    /** How long a host that failed is set aside, in ms. */
    readonly cooldownMs: number,
    sources: HostSelectorSources = {},
  ) {
    this.#now = sources.now ?? Date.now
    this.#random = sources.random ?? Math.random
  }

  /** Every host, in the order to try them now. */
  candidates(): Host[] {
    const ordered = [...this.hosts]
    if (this.strategy === 'round-robin') {
      const start = this.#next++ % ordered.length
      ordered.push(...ordered.splice(0, start))
    } else if (this.strategy === 'random') {
      // Fisher-Yates: every order equally likely.
      for (let i = ordered.length - 1; i > 0; i--) {
        const j = Math.floor(this.#random() * (i + 1))
        ;[ordered[i], ordered[j]] = [ordered[j]!, ordered[i]!]
      }
    }
    const time = this.#now()
    const until = (host: Host) => this.#failedUntil.get(host) ?? 0
    const healthy = ordered.filter((host) => until(host) <= time)
    const coolingDown = ordered.filter((host) => until(host) > time).sort((a, b) => until(a) - until(b))
    return [...healthy, ...coolingDown]
  }

  /** Sets a host aside for the cool-down. */
  failed(host: Host): void {
    this.#failedUntil.set(host, this.#now() + this.cooldownMs)
  }

  /** A host answered: it is healthy again. */
  succeeded(host: Host): void {
    this.#failedUntil.delete(host)
  }

  /** Whether a host is in its cool-down. */
  isCoolingDown(host: Host): boolean {
    return (this.#failedUntil.get(host) ?? 0) > this.#now()
  }
}
