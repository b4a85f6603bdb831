export { AbortError } from './abort-error.js'
export { ClickHouseError } from './clickhouse-error.js'
export { ClickwireError, type InsertOutcome, redactSecrets, registerSecret } from './clickwire-error.js'
export { ConnectionError } from './connection-error.js'
export { errorCodeName } from './error-codes.js'
export { type ExceptionText, parseExceptionText } from './exception-text.js'
export { permissionRefusal } from './permission-refusal.js'
export { acquireTimeoutError, defaultAcquireTimeoutMs } from './pool-errors.js'
export { ProtocolError } from './protocol-error.js'
export {
  type RequestKind,
  requestAbortError,
  requestClosedError,
  requestTimeoutError,
} from './request-errors.js'
export { TimeoutError } from './timeout-error.js'
export { TypeParseError, UsageError } from './usage-error.js'
