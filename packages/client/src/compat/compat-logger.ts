import type { LogContext, Logger, LogLevel } from '../client-logger.js'

/** @clickhouse/client's log levels (numbers, as there). */
export const ClickHouseLogLevel = {
  TRACE: 0,
  DEBUG: 1,
  INFO: 2,
  WARN: 3,
  ERROR: 4,
  OFF: 127,
} as const
export type ClickHouseLogLevel = (typeof ClickHouseLogLevel)[keyof typeof ClickHouseLogLevel]

/** What @clickhouse/client passes to a logger method. */
export interface LogParams {
  readonly module: string
  readonly message: string
  readonly args?: Record<string, unknown> | undefined
}
export interface ErrorLogParams extends LogParams {
  readonly err: Error
}

/** @clickhouse/client's logger interface: a class the client instantiates (`log.LoggerClass`). */
export interface CompatLogger {
  trace(params: LogParams): void
  debug(params: LogParams): void
  info(params: LogParams): void
  warn(params: LogParams): void
  error(params: ErrorLogParams): void
}

/** Our log level for one of @clickhouse/client's (TRACE is our debug). */
export function logLevelOf(level: ClickHouseLogLevel | undefined): LogLevel | undefined {
  if (level === undefined) return undefined
  if (level <= ClickHouseLogLevel.DEBUG) return 'debug'
  if (level === ClickHouseLogLevel.INFO) return 'info'
  if (level === ClickHouseLogLevel.WARN) return 'warn'
  if (level === ClickHouseLogLevel.ERROR) return 'error'
  return 'off'
}

/** Our Logger writing to a @clickhouse/client logger; an error entry's `error` becomes its `err`. */
export function loggerOf(logger: CompatLogger): Logger {
  const params = (message: string, context: LogContext): LogParams => ({
    module: 'Clickwire',
    message,
    args: context as Record<string, unknown>,
  })
  return {
    debug: (message, context) => logger.debug(params(message, context)),
    info: (message, context) => logger.info(params(message, context)),
    warn: (message, context) => logger.warn(params(message, context)),
    error: (message, context) => {
      const cause = (context as { error?: unknown }).error
      logger.error({ ...params(message, context), err: cause instanceof Error ? cause : new Error(message) })
    },
  }
}
