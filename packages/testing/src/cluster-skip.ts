import { modernReplicationUnsupported } from './modern-engine.js'
import type { ServerInfo } from './server-info.js'
import { zooKeeperInstalled, zooKeeperInstallHint } from './zookeeper-server.js'

/**
 * Why a cluster test cannot run against `server` (the run's injected one), or undefined when
 * it can. Every cluster is started from a local binary, so a run against an external server
 * skips them; `replicated` ones also need ZooKeeper installed and a generation that
 * replicates (the modern engine does not: {@link modernReplicationUnsupported}).
 */
export function clusterSkipReason(
  server: Pick<ServerInfo, 'source' | 'generation'>,
  { replicated }: { readonly replicated: boolean },
): string | undefined {
  if (replicated && !zooKeeperInstalled()) return zooKeeperInstallHint
  if (server.source !== 'local')
    return 'the run uses an external server; the cluster is started from a local binary'
  if (replicated && server.generation === 'modern') return modernReplicationUnsupported
  return undefined
}
