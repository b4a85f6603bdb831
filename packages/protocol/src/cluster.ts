// `@clickwire/protocol/cluster`: what clients read about a cluster's tables. Off the main
// entry so that a browser page that never writes to a cluster does not carry it: the
// direct-to-shard insert loads it with `import()`, and codegen imports it.
export { type DistributedEngine, parseDistributedEngine } from './sql/distributed-engine.js'
