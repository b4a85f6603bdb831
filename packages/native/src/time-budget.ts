/**
 * The time a request may take from its start, spent across its phases (waiting for a
 * connection, connecting, running), so the limit holds for the whole request.
 */
export class TimeBudget {
  private readonly deadline: number | undefined

  constructor(
    /** The whole limit in ms; 0 or less for none. */
    readonly limitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.deadline = limitMs > 0 ? now() + limitMs : undefined
  }

  /** Milliseconds left, at least 1 once a limit is set; 0 when there is no limit. */
  remaining(): number {
    if (this.deadline === undefined) return 0
    return Math.max(1, Math.ceil(this.deadline - this.now()))
  }

  /** Whether a limit is set and has passed. */
  get expired(): boolean {
    return this.deadline !== undefined && this.now() >= this.deadline
  }
}
