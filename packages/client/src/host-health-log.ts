import type { HostHealthEvents } from '@clickwire/protocol'
import { type ClientLog, errorContext } from './client-logger.js'
import type { Endpoint } from './client-options.js'

/**
 * The client's log of host health, for both transports (native's pool and HTTP's
 * failover): a warn when a host is set aside, an info when it answers again. Once per
 * change, not per failed attempt. Entries carry `host:port` and the error's fields only:
 * never credentials. `also` hears of each host set aside too (cluster discovery reads the
 * cluster again then).
 */
export function hostHealthLog<Host>(
  log: ClientLog,
  endpointOf: (host: Host) => Endpoint | undefined,
  cooldownMs: number,
  also?: () => void,
): HostHealthEvents<Host> {
  const name = (host: Host) => {
    const endpoint = endpointOf(host)
    return endpoint && `${endpoint.host}:${endpoint.port}`
  }
  return {
    onSetAside: (host, error) => {
      log.warn('host unreachable, trying the next', {
        host: name(host),
        cooldownMs,
        ...errorContext(error),
      })
      also?.()
    },
    onRestored: (host) => log.info('host reachable again', { host: name(host) }),
  }
}
