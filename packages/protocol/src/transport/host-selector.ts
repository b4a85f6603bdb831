import { UsageError } from '../errors/index.js'

/**
 * How to choose among several hosts, in our canonical (hyphenated) names:
 * - `in-order`: the first healthy host of the list, the next ones as failover;
 * - `round-robin`: each new connection or request starts one host further along;
 * - `random`: a fresh random order each time;
 * - `first-or-random`: the first host while it is healthy, otherwise a random healthy one.
 *
 * ClickHouse's own `load_balancing` names for the same policies are aliases
 * ({@link LoadBalancingName}); {@link resolveHostStrategy} maps either onto these.
 */
export type HostStrategy = 'in-order' | 'round-robin' | 'random' | 'first-or-random'

/** ClickHouse's `load_balancing` names of the policies a client can apply (aliases of {@link HostStrategy}). */
export type LoadBalancingName = 'in_order' | 'round_robin' | 'random' | 'first_or_random'

/** A {@link HostStrategy} in either vocabulary, as options and URLs take it. */
export type HostStrategyName = HostStrategy | LoadBalancingName

/** What a {@link HostSelector} reads instead of the real clock and dice, for tests. */
export interface HostSelectorSources {
  /** Milliseconds now (default `Date.now`). */
  readonly now?: (() => number) | undefined
  /** A number in [0, 1) (default `Math.random`). */
  readonly random?: (() => number) | undefined
}

/** Told when a host's health changes, e.g. for a log (once per change, not per failure). */
export interface HostHealthEvents<Host> {
  /** A healthy host failed and is set aside until `untilMs` (epoch ms by the selector's clock). */
  readonly onSetAside?: ((host: Host, error: unknown, untilMs: number) => void) | undefined
  /** A host that had been set aside answered again. */
  readonly onRestored?: ((host: Host) => void) | undefined
}

const strategies: readonly string[] = ['in-order', 'round-robin', 'random', 'first-or-random']

const aliases: Readonly<Record<LoadBalancingName, HostStrategy>> = {
  in_order: 'in-order',
  round_robin: 'round-robin',
  random: 'random',
  first_or_random: 'first-or-random',
}

/**
 * ClickHouse's `load_balancing` values a client cannot apply, and why: both rank replicas by
 * how far their host names are from the name of the server that runs the query (a data
 * centre's naming scheme); a client's own name says nothing about its network distance to
 * the hosts of its URL, which are often addresses or a load balancer's name, and a browser
 * has no host name at all.
 */
const serverOnlyPolicies: readonly string[] = ['nearest_hostname', 'hostname_levenshtein_distance']

/** Whether `value` names a {@link HostStrategy} (canonical names only; see {@link resolveHostStrategy}). */
export function isHostStrategy(value: unknown): value is HostStrategy {
  return typeof value === 'string' && strategies.includes(value)
}

/**
 * The strategy a `load_balancing` value maps onto (`in_order` -> `in-order`, ...), or
 * undefined for a value a client does not apply (`nearest_hostname`, unknown ones): the
 * setting then only tells the server how to pick replicas for Distributed reads.
 */
export function hostStrategyOfLoadBalancing(value: unknown): HostStrategy | undefined {
  return typeof value === 'string' && Object.hasOwn(aliases, value)
    ? aliases[value as LoadBalancingName]
    : undefined
}

/**
 * The canonical {@link HostStrategy} for an option's value in either vocabulary; a UsageError
 * naming `option` for anything else, with why for the two policies only a server applies.
 */
export function resolveHostStrategy(value: unknown, option = 'hostStrategy'): HostStrategy {
  if (isHostStrategy(value)) return value
  const mapped = hostStrategyOfLoadBalancing(value)
  if (mapped) return mapped
  const names = 'in-order, round-robin, random or first-or-random (or in_order, round_robin, first_or_random)'
  throw new UsageError(
    typeof value === 'string' && serverOnlyPolicies.includes(value)
      ? `${option} ${value} ranks replicas by host name distance from the server: only a server applies it (as load_balancing); use ${names}`
      : `${option} must be ${names}, got ${String(value)}`,
  )
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
  #hosts: readonly Host[]
  readonly #failedUntil = new Map<Host, number>()
  readonly #now: () => number
  readonly #random: () => number
  readonly #events: HostHealthEvents<Host>
  /** The canonical strategy (a `load_balancing` alias given is mapped). */
  readonly strategy: HostStrategy

  constructor(
    hosts: readonly Host[],
    strategy: HostStrategyName,
    /** How long a host that failed is set aside, in ms. */
    readonly cooldownMs: number,
    sources: HostSelectorSources = {},
    events: HostHealthEvents<Host> = {},
  ) {
    this.#hosts = [...hosts]
    this.strategy = resolveHostStrategy(strategy)
    this.#now = sources.now ?? Date.now
    this.#random = sources.random ?? Math.random
    this.#events = events
  }

  /** The hosts, in their configured order. */
  get hosts(): readonly Host[] {
    return this.#hosts
  }

  /**
   * Replaces the host list (a cluster's replicas, discovered again). A host still listed
   * keeps its cool-down; `same` says which old host a new one is (default: identity), and
   * the old value is kept for it so callers may key their state by host.
   */
  setHosts(hosts: readonly Host[], same: (a: Host, b: Host) => boolean = Object.is): void {
    const next = hosts.map((host) => this.#hosts.find((old) => same(old, host)) ?? host)
    for (const host of this.#failedUntil.keys()) if (!next.includes(host)) this.#failedUntil.delete(host)
    this.#hosts = next
  }

  /** Every host, in the order to try them now. */
  candidates(): Host[] {
    const ordered = [...this.#hosts]
    if (this.strategy === 'round-robin') {
      const start = this.#next++ % ordered.length
      ordered.push(...ordered.splice(0, start))
    } else if (this.strategy === 'random') {
      this.#shuffle(ordered, 0)
    } else if (this.strategy === 'first-or-random') {
      // The first host leads while healthy (the partition below moves it back otherwise);
      // the others follow in a random order, so a dead first host spreads its load.
      this.#shuffle(ordered, 1)
    }
    const time = this.#now()
    const until = (host: Host) => this.#failedUntil.get(host) ?? 0
    const healthy = ordered.filter((host) => until(host) <= time)
    const coolingDown = ordered.filter((host) => until(host) > time).sort((a, b) => until(a) - until(b))
    return [...healthy, ...coolingDown]
  }

  /** Fisher-Yates over `hosts[from..]`: every order of those equally likely. */
  #shuffle(hosts: Host[], from: number): void {
    for (let i = hosts.length - 1; i > from; i--) {
      const j = from + Math.floor(this.#random() * (i - from + 1))
      ;[hosts[i], hosts[j]] = [hosts[j]!, hosts[i]!]
    }
  }

  /** Sets a host aside for the cool-down (told to `onSetAside` when it was healthy until now). */
  failed(host: Host, error?: unknown): void {
    const wasHealthy = !this.isCoolingDown(host)
    const until = this.#now() + this.cooldownMs
    this.#failedUntil.set(host, until)
    if (wasHealthy) this.#events.onSetAside?.(host, error, until)
  }

  /** A host answered: it is healthy again (told to `onRestored` when it had failed). */
  succeeded(host: Host): void {
    if (this.#failedUntil.delete(host)) this.#events.onRestored?.(host)
  }

  /** Whether a host is in its cool-down. */
  isCoolingDown(host: Host): boolean {
    return (this.#failedUntil.get(host) ?? 0) > this.#now()
  }
}
