import type {} from 'vitest'
import type { ServerInfo } from './server-info.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared throwaway server (see `@clickwire/testing`). */
    clickhouse: ServerInfo
  }
}
