import { redactSecrets, UsageError } from '@clickwire/protocol'

/** How much a {@link Logger} is told, from most to least: each level includes the ones after it. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off'

/** What a log entry carries besides its message: plain values only, never a secret. */
export type LogContext = Readonly<Record<string, string | number | boolean | undefined>>

/**
 * Where the client's log entries go: four methods, each given a message and a context
 * object. `console`, pino and winston loggers fit as they are (pino takes the object
 * first: wrap it, see the README). Every message and context value passed through has had
 * the client's password, registered secrets and URL credentials masked.
 */
export interface Logger {
  debug(message: string, context: LogContext): void
  info(message: string, context: LogContext): void
  warn(message: string, context: LogContext): void
  error(message: string, context: LogContext): void
}

const ranks: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 }

/** Writes entries to `console` as `[clickwire] message {context}`. */
export const consoleLogger: Logger = {
  debug: (message, context) => console.debug(`[clickwire] ${message}`, context),
  info: (message, context) => console.info(`[clickwire] ${message}`, context),
  warn: (message, context) => console.warn(`[clickwire] ${message}`, context),
  error: (message, context) => console.error(`[clickwire] ${message}`, context),
}

/**
 * The client's side of a {@link Logger}: drops entries below the level and masks secrets
 * in what it passes on. The entries are built from known fields (query ids, hosts, times,
 * error kinds) and error messages, which clickwire errors already redact; the masking here
 * is the second guard, for a password of any characters and any length from 3 (shorter
 * ones would mask ordinary words; errors register 4 and more, see redactSecrets).
 */
export class ClientLog {
  readonly #logger: Logger | undefined
  readonly #rank: number
  readonly #password: string

  constructor(logger: Logger | undefined, level: LogLevel | undefined, password: string) {
    if (level !== undefined && !(level in ranks)) {
      throw new UsageError(`logLevel must be one of ${Object.keys(ranks).join(', ')}, got ${String(level)}`)
    }
    if (logger !== undefined && (typeof logger !== 'object' || typeof logger.warn !== 'function')) {
      throw new UsageError('logger needs debug, info, warn and error methods')
    }
    this.#logger = logger
    this.#rank = logger ? ranks[level ?? 'info'] : ranks.off
    this.#password = password
  }

  /** Whether entries of `level` go anywhere (so callers skip building them otherwise). */
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return ranks[level] >= this.#rank
  }

  debug(message: string, context: LogContext = {}): void {
    this.#write('debug', message, context)
  }

  info(message: string, context: LogContext = {}): void {
    this.#write('info', message, context)
  }

  warn(message: string, context: LogContext = {}): void {
    this.#write('warn', message, context)
  }

  error(message: string, context: LogContext = {}): void {
    this.#write('error', message, context)
  }

  #write(level: Exclude<LogLevel, 'off'>, message: string, context: LogContext): void {
    if (!this.#logger || !this.enabled(level)) return
    const clean: Record<string, string | number | boolean> = {}
    for (const [key, value] of Object.entries(context)) {
      if (value !== undefined) clean[key] = typeof value === 'string' ? this.#mask(value) : value
    }
    try {
      this.#logger[level](this.#mask(message), clean)
    } catch {
      // A logger that throws must not fail the query it reports on.
    }
  }

  #mask(text: string): string {
    let result = redactSecrets(text)
    const password = this.#password
    if (password.length >= 3) {
      for (const form of new Set([password, encodeURIComponent(password)])) {
        if (result.includes(form)) result = result.split(form).join('***')
      }
    }
    return result
  }
}

/**
 * What a failure is, for a log context: its name, kind, code and message (clickwire errors
 * are already redacted; the log masks again). A transport's raw failure (an HTTP backend's
 * `{ code, phase }`) gives what it has.
 */
export function errorContext(error: unknown): LogContext {
  if (typeof error !== 'object' || error === null) return { error: String(error) }
  const { name, message, kind, code } = error as Record<string, unknown>
  const cause = (error as { cause?: unknown }).cause
  const text =
    typeof message === 'string' && message !== ''
      ? message
      : cause instanceof Error
        ? cause.message
        : String(code ?? 'unknown error')
  return {
    error: text,
    errorName: typeof name === 'string' ? name : undefined,
    errorKind: typeof kind === 'string' ? kind : undefined,
    errorCode: typeof code === 'number' || typeof code === 'string' ? code : undefined,
  }
}
