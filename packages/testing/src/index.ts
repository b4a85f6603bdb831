export { chromiumArgs, chromiumPath, type StaticSite, serveStaticSite } from './browser-site.js'
export { concatBytes } from './byte-concat.js'
export {
  chdbBytes,
  chdbQuery,
  chdbQueryWithParameters,
  chdbReadNative,
  chdbReadNativeBytes,
} from './chdb-oracle.js'
export { type ClientCliOptions, clickhouseClient } from './clickhouse-client-cli.js'
export { type StartClickHouseOptions, startClickHouse } from './clickhouse-server.js'
export { clusterSkipReason } from './cluster-skip.js'
export {
  type Direction,
  type Fault,
  FaultProxy,
  type FaultProxyOptions,
  type ProxyTap,
} from './fault-proxy.js'
export { freePorts } from './free-port.js'
export {
  type ForkProxy,
  type ForkProxyOptions,
  type StaleSocketProxy,
  startForkProxy,
  startStaleSocketProxy,
  type TestProxy,
} from './http-proxies.js'
export { latestEngineDir, latestEnginePackage, latestServerLogsMissing } from './latest-engine.js'
export {
  modernEngineLibrary,
  modernHandshakeAbort,
  modernKeeperQueryId,
  modernLateErrorAbort,
  modernReplicationUnsupported,
} from './modern-engine.js'
export { type ParameterCase, parameterCases } from './parameter-cases.js'
export { type RuntimeName, runtimeBinary } from './runtime-binaries.js'
export { type RuntimeProgram, runProgramOn } from './runtime-programs.js'
export {
  checkKeptWhileRecycling,
  checkScanBlock,
  readScan,
  type ScanBlock,
  type ScanStream,
  scanRows,
  scanSelect,
} from './scan-checks.js'
export { type ClickHouseCommand, findClientCommand, findServerCommand, installHint } from './server-binary.js'
export { defaultUsers, type ServerUsers } from './server-config.js'
export {
  generationOfLine,
  generationOfVersion,
  lineOf,
  lineOfVersion,
  requestedGeneration,
  requestedLine,
  type ServerGeneration,
  type ServerLine,
  type ServerSelector,
  serverRevisionOf,
  serverRevisions,
} from './server-generation.js'
export type { ClickHouseServer, ServerInfo } from './server-info.js'
export { makeTestCertificates, type TestCertificates } from './tls-certificates.js'
export {
  startZooKeeper,
  type ZooKeeperServer,
  zooKeeperInstalled,
  zooKeeperInstallHint,
} from './zookeeper-server.js'
