import type { HostAddress, HostStrategy } from './native-options.js'

/**
 * Orders hosts for the next connection attempt. Hosts that failed recently are set aside
 * for a cooldown: they are tried only after every healthy host failed too, so one dead
 * server costs a connect error now and then, not on every query.
 */
export class HostSelector {
  private next = 0
  private readonly failedUntil = new Map<string, number>()

  constructor(
    readonly hosts: readonly HostAddress[],
    readonly strategy: HostStrategy,
    readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every host, in the order to try them now. */
  candidates(): HostAddress[] {
    const hosts = this.hosts
    let ordered: HostAddress[]
    if (this.strategy === 'round-robin') {
      const start = this.next++ % hosts.length
      ordered = [...hosts.slice(start), ...hosts.slice(0, start)]
    } else if (this.strategy === 'random') {
      ordered = [...hosts]
      for (let i = ordered.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1))
        ;[ordered[i], ordered[j]] = [ordered[j]!, ordered[i]!]
      }
    } else ordered = [...hosts]
    const time = this.now()
    const healthy = ordered.filter((host) => (this.failedUntil.get(key(host)) ?? 0) <= time)
    const coolingDown = ordered
      .filter((host) => (this.failedUntil.get(key(host)) ?? 0) > time)
      .sort((a, b) => this.failedUntil.get(key(a))! - this.failedUntil.get(key(b))!)
    return [...healthy, ...coolingDown]
  }

  /** Sets a host aside for the cooldown. */
  failed(host: HostAddress): void {
    this.failedUntil.set(key(host), this.now() + this.cooldownMs)
  }

  /** A host answered: it is healthy again. */
  succeeded(host: HostAddress): void {
    this.failedUntil.delete(key(host))
  }

  /** Whether a host is in its cooldown. */
  isCoolingDown(host: HostAddress): boolean {
    return (this.failedUntil.get(key(host)) ?? 0) > this.now()
  }
}

function key(host: HostAddress): string {
  return `${host.host}:${host.port}`
}
