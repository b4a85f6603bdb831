import type {} from 'vitest'
import type { ServerInfo } from './clickhouse-server.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared throwaway server (see `@clickwire/testing`). */
    clickhouse: ServerInfo
  }
}
