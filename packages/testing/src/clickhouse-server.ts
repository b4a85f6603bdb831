import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startDockerClickHouse } from './docker-server.js'
import { externalServer } from './external-server.js'
import { freePorts } from './free-port.js'
import { latestEnginePackage, latestServerCommand } from './latest-engine.js'
import { modernServerCommand } from './modern-engine.js'
import { type ClickHouseCommand, findServerCommand, installHint } from './server-binary.js'
import {
  defaultUsers,
  type ServerPorts,
  serverConfigXml,
  usersConfigXml,
  zooKeeperSessionTimeoutMs,
} from './server-config.js'
import {
  generationOfVersion,
  lineOf,
  lineOfVersion,
  requestedLine,
  type ServerGeneration,
  type ServerLine,
  type ServerSelector,
} from './server-generation.js'
import type { ClickHouseServer, ServerInfo } from './server-info.js'
import { LocalNode } from './server-process.js'
import { makeTestCertificates } from './tls-certificates.js'
import { startZooKeeper, type ZooKeeperServer } from './zookeeper-server.js'

export interface StartClickHouseOptions {
  /**
   * Also open `tcp_port_secure` and `https_port` with a fresh self-signed CA. The modern
   * engine has no TLS listeners, so there the secure URLs stay undefined.
   */
  tls?: boolean
  /**
   * Which server to start: `'18.16'` (or `'legacy'`), `'26.7'` (or `'modern'`), `'26.9'` (or
   * `'latest'`). Default: `CLICKWIRE_SERVER`, else 18.16 if installed, else 26.7.
   */
  generation?: ServerSelector
  /** Start this many shards forming the `clickwire_cluster` cluster (one server each by default). */
  shards?: number
  /**
   * Servers per shard (default 1). More than one also starts a throwaway ZooKeeper (Debian's
   * `zookeeper` package, see `zooKeeperInstalled()`), gives each node `{shard}` and
   * `{replica}` macros for ReplicatedMergeTree, and enables ON CLUSTER DDL. `nodes` lists
   * shard 1's replicas first, then shard 2's, and so on. The modern engine starts such a
   * cluster too, but cannot replicate (see `modernReplicationUnsupported`).
   */
  replicas?: number
  /** Settings of the default profile. */
  profileSettings?: Readonly<Record<string, string | number | boolean>>
  /** Server time zone (default UTC). */
  timezone?: string
  /** How long to wait for the server to answer (default 60 s). */
  startTimeoutMs?: number
  /** Ignore `CLICKHOUSE_URL` and start a local server (tests of the harness itself). */
  local?: boolean
  /** The server program; default from `CLICKHOUSE_SERVER_BIN` or PATH. */
  command?: ClickHouseCommand
  /** Parent folder for the server's temp dir (default the OS temp dir). */
  tempDir?: string
}

const clusterName = 'clickwire_cluster'

async function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

async function httpText(url: string, timeoutMs = 2000): Promise<string | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
    const text = await response.text()
    return response.ok ? text : undefined
  } catch {
    return undefined
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function errorLogTail(dir: string): Promise<string> {
  const parts: string[] = []
  for (const name of ['log/server.err.log', 'log/stdout.log']) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '')
    if (!text) continue
    const lines = text.split('\n').slice(-300)
    // A crash writes its reason, then a long stack trace: start at the reason.
    const fatal = lines.findIndex((line) => line.includes('<Fatal>'))
    parts.push(
      lines
        .slice(fatal >= 0 ? Math.max(0, fatal - 3) : -15)
        .slice(0, 40)
        .join('\n'),
    )
  }
  return parts.join('\n')
}

/** Waits until the server answers on HTTP and accepts TCP, or its process exits. */
async function waitReady(
  node: LocalNode,
  host: string,
  ports: ServerPorts,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let exited = node.exited
  const unsubscribe = node.onExit(() => {
    exited = true
  })
  try {
    for (let wait = 20; ; wait = Math.min(wait * 1.5, 250)) {
      if (exited)
        throw new Error(`the ClickHouse server exited during start:\n${await errorLogTail(node.dir)}`)
      if ((await httpText(`http://${host}:${ports.http}/ping`, 1000)) === 'Ok.\n') {
        if (await canConnect(host, ports.tcp)) return
      }
      if (Date.now() > deadline) {
        throw new Error(
          `the ClickHouse server did not answer within ${timeoutMs} ms:\n${await errorLogTail(node.dir)}`,
        )
      }
      await delay(wait)
    }
  } finally {
    unsubscribe()
  }
}

interface PlannedNode {
  dir: string
  ports: ServerPorts
}

async function planNode(parent: string, tls: boolean): Promise<PlannedNode> {
  const dir = await mkdtemp(join(parent, 'clickwire-ch-'))
  await Promise.all(
    ['log', 'data', 'tmp', 'user_files', 'format_schemas'].map((name) => mkdir(join(dir, name))),
  )
  const [tcp, http, interserverHttp, tcpSecure, https] = await freePorts(tls ? 5 : 3)
  return { dir, ports: { tcp: tcp!, http: http!, interserverHttp: interserverHttp!, tcpSecure, https } }
}

function isPortClash(error: unknown): boolean {
  return /Address already in use|Net Exception: Address already/i.test(String(error))
}

async function startLocal(
  options: StartClickHouseOptions,
  command: ClickHouseCommand,
): Promise<ClickHouseServer> {
  const shards = options.shards ?? 1
  const replicas = options.replicas ?? 1
  const generation = command.generation ?? 'legacy'
  // SYSTEM START LISTEN in the modern engine opens TCP and HTTP only.
  const tls = (options.tls ?? false) && generation !== 'modern'
  const parent = options.tempDir ?? tmpdir()
  const timeoutMs = options.startTimeoutMs ?? 60_000
  const host = '127.0.0.1'
  const zooKeeper =
    replicas > 1 ? await startZooKeeper({ tempDir: parent, startTimeoutMs: timeoutMs }) : undefined
  try {
    return await startNodes(options, command, { shards, replicas, tls, parent, timeoutMs, host, zooKeeper })
  } catch (error) {
    await zooKeeper?.stop()
    throw error
  }
}

/** Where node `index` sits: shard and replica, both counted from 1. */
function placeOf(index: number, replicas: number): { shard: number; replica: number } {
  return { shard: Math.floor(index / replicas) + 1, replica: (index % replicas) + 1 }
}

async function startNodes(
  options: StartClickHouseOptions,
  command: ClickHouseCommand,
  plan: {
    shards: number
    replicas: number
    tls: boolean
    parent: string
    timeoutMs: number
    host: string
    zooKeeper: ZooKeeperServer | undefined
  },
): Promise<ClickHouseServer> {
  const { shards, replicas, tls, parent, timeoutMs, host, zooKeeper } = plan
  const generation = command.generation ?? 'legacy'
  for (let attempt = 1; ; attempt++) {
    const planned = await Promise.all(Array.from({ length: shards * replicas }, () => planNode(parent, tls)))
    const ports = planned.map((node) => node.ports.tcp)
    const clusters =
      planned.length > 1
        ? {
            [clusterName]: Array.from({ length: shards }, (_, shard) =>
              replicas > 1 ? ports.slice(shard * replicas, (shard + 1) * replicas) : ports[shard]!,
            ),
          }
        : undefined
    const nodes: LocalNode[] = []
    try {
      await Promise.all(
        planned.map(async ({ dir, ports }, index) => {
          const certificates = tls ? await makeTestCertificates(dir) : undefined
          const place = placeOf(index, replicas)
          const layout = {
            dir,
            ports,
            users: defaultUsers,
            tls: certificates,
            generation,
            queryId: command.configQueryId,
            timezone: options.timezone,
            profileSettings: options.profileSettings,
            clusters,
            macros: zooKeeper
              ? { shard: place.shard, replica: `s${place.shard}r${place.replica}` }
              : undefined,
            zooKeeper,
          }
          await writeFile(join(dir, 'config.xml'), serverConfigXml(layout))
          await writeFile(join(dir, 'users.xml'), usersConfigXml(layout))
          const node = new LocalNode(dir, command)
          nodes.push(node)
          await waitReady(node, host, ports, timeoutMs)
          return certificates
        }),
      )
      const servers = await Promise.all(
        planned.map(async ({ dir, ports }, index) => {
          const node = nodes.find((candidate) => candidate.dir === dir)!
          const ca = tls ? await readFile(join(dir, 'ca.crt'), 'utf8') : undefined
          return makeLocalServer(node, index, {
            dir,
            ports,
            host,
            ca,
            clusterName: clusters ? clusterName : undefined,
            generation,
            line: command.line,
            place: clusters ? placeOf(index, replicas) : undefined,
            zooKeeper,
          })
        }),
      )
      const all = servers.map((server) => server.server)
      for (const server of servers) server.setNodes(all)
      return all[0]!
    } catch (error) {
      await Promise.all(nodes.map((node) => node.stop()))
      if (attempt < 3 && isPortClash(error)) continue
      throw error
    }
  }
}

function makeLocalServer(
  node: LocalNode,
  _index: number,
  where: {
    dir: string
    ports: ServerPorts
    host: string
    ca: string | undefined
    clusterName: string | undefined
    generation: ServerGeneration
    line: ServerLine | undefined
    place: { shard: number; replica: number } | undefined
    /** The ZooKeeper of a replicated cluster, stopped after every node. */
    zooKeeper: ZooKeeperServer | undefined
  },
): { server: ClickHouseServer; setNodes(nodes: ClickHouseServer[]): void } {
  const { dir, ports, host, ca } = where
  let nodes: ClickHouseServer[] = []
  let stopped: Promise<void> | undefined
  const info: ServerInfo = {
    source: 'local',
    host,
    ports,
    nativeUrl: `clickhouse://${host}:${ports.tcp}`,
    httpUrl: `http://${host}:${ports.http}`,
    secureNativeUrl: ports.tcpSecure === undefined ? undefined : `clickhouses://localhost:${ports.tcpSecure}`,
    secureHttpUrl: ports.https === undefined ? undefined : `https://localhost:${ports.https}`,
    ca,
    caFile: ca === undefined ? undefined : join(dir, 'ca.crt'),
    users: defaultUsers,
    hasTestUsers: true,
    version: '',
    generation: where.generation,
    line: where.line ?? '',
    dir,
    clusterName: where.clusterName,
    shard: where.place?.shard,
    replica: where.place?.replica,
  }
  let killedAt: number | undefined
  if (where.place) {
    // A cluster node that dies by itself fails the next test that reaches it; say why here.
    node.onExit(() => {
      if (node.expectingExit) return
      const keeper = where.zooKeeper
      void Promise.all([
        errorLogTail(dir),
        keeper ? readFile(join(keeper.dir, 'log', 'stdout.log'), 'utf8').catch(() => '') : '',
        readFile(join(dir, 'log', 'server.log'), 'utf8')
          .then((text) =>
            text
              .split('\n')
              .filter((line) => /ZooKeeper|DDLWorker|Coordination|session/i.test(line))
              .slice(-25)
              .join('\n'),
          )
          .catch(() => ''),
      ]).then(([tail, keeperLog, keeperLines]) =>
        process.stderr.write(
          `[clickwire] cluster node shard ${where.place!.shard} replica ${where.place!.replica} (port ${ports.tcp}) exited by itself. Its log ends:\n${tail}\n` +
            (keeperLog ? `ZooKeeper's log ends:\n${keeperLog.slice(-3000)}\n` : '') +
            (keeperLines ? `Its last lines about ZooKeeper:\n${keeperLines}\n` : ''),
        ),
      )
    })
  }
  const server: ClickHouseServer = {
    ...info,
    get pid() {
      return node.exited ? undefined : node.pid
    },
    get nodes() {
      return nodes
    },
    zooKeeper: where.zooKeeper,
    info: () => ({ ...info, version: server.version, generation: server.generation, line: server.line }),
    async kill() {
      await node.kill()
      killedAt = performance.now()
    },
    onUnexpectedExit(listener) {
      return node.onExit(() => {
        if (node.expectingExit) return
        void errorLogTail(dir).then(listener)
      })
    },
    async restart() {
      if (!node.exited) return
      // A replicated node killed a moment ago still has its ZooKeeper session, whose
      // ephemeral "is_active" node would make its replicated tables fail to load (18.16 then
      // exits during start): wait until ZooKeeper has expired the session.
      if (where.zooKeeper && killedAt !== undefined) {
        const wait = killedAt + zooKeeperSessionTimeoutMs + 1000 - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      }
      // ZooKeeper expires a session on its own clock, late when the machine is busy; until
      // then the start fails, so a replicated node tries again for a while.
      for (let attempt = 1; ; attempt++) {
        // A node killed mid-insert may hold parts ZooKeeper never heard of, or miss parts it
        // lists: 18.16 then refuses to load the table ("The local set of parts ... doesn't
        // look like the set of parts in ZooKeeper") unless told to restore, as an operator
        // would after a crash. The server deletes the flag once started.
        if (where.zooKeeper) {
          await mkdir(join(dir, 'data', 'flags'), { recursive: true })
          await writeFile(join(dir, 'data', 'flags', 'force_restore_data'), '')
        }
        await node.start()
        try {
          await waitReady(node, host, ports, 60_000)
          return
        } catch (error) {
          if (!where.zooKeeper || !node.exited || attempt === 10) throw error
          await new Promise((resolve) => setTimeout(resolve, 2000))
        }
      }
    },
    stop() {
      // Stopping the first node of a cluster stops every node.
      const first = nodes[0] === server
      stopped ??= Promise.all(
        (first ? nodes : [server]).map((each) => (each === server ? node.stop() : each.stop())),
      ).then(() => (first ? where.zooKeeper?.stop() : undefined))
      return stopped
    },
    [Symbol.asyncDispose]: () => server.stop(),
  }
  return {
    server,
    setNodes(all) {
      nodes = all
    },
  }
}

async function fillVersion(server: ClickHouseServer): Promise<ClickHouseServer> {
  const version = (await httpText(`${server.httpUrl}/?query=SELECT%20version()`, 10_000))?.trim()
  if (!version) throw new Error(`the server at ${server.httpUrl} did not answer SELECT version()`)
  for (const node of server.nodes.length ? server.nodes : [server]) {
    ;(node as { version: string }).version = version
    ;(node as { generation: ServerGeneration }).generation = generationOfVersion(version)
    ;(node as { line: string }).line = lineOfVersion(version)
  }
  return server
}

async function dockerAvailable(): Promise<boolean> {
  if (process.env.DOCKER_HOST) return true
  return new Promise((resolve) => {
    const probe = spawn('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore' })
    probe.once('error', () => resolve(false))
    probe.once('exit', (code) => resolve(code === 0))
  })
}

/** The local program for a line; without one asked for, 18.16 first, then the 26.7 engine. */
async function localServerCommand(line: ServerLine | undefined): Promise<ClickHouseCommand | undefined> {
  if (line === '26.7') {
    const command = await modernServerCommand()
    if (!command)
      throw new Error(
        'ClickHouse 26.7 (modern) was asked for, but @chdb/lib-linux-x64-gnu is not installed (pnpm install)',
      )
    return command
  }
  if (line === '26.9') {
    const command = latestServerCommand()
    if (!command)
      throw new Error(
        `ClickHouse 26.9 (latest) was asked for, but ${latestEnginePackage} is not installed: run scripts/install-chdb-core.sh (scripts/bootstrap.sh does)`,
      )
    return command
  }
  const legacy = findServerCommand()
  if (legacy || line === '18.16') return legacy
  return modernServerCommand()
}

/**
 * Starts a throwaway ClickHouse server for tests, and returns its URLs once it answers.
 *
 * Where the server comes from, in order: `CLICKHOUSE_URL` (an existing server, never
 * stopped by us), a local binary (`CLICKHOUSE_SERVER_BIN` or PATH), Docker through
 * testcontainers. With none of them it fails with one message that says how to get one.
 *
 * @example
 * ```ts
 * await using server = await startClickHouse({ tls: true })
 * console.log(server.nativeUrl, server.httpUrl, server.version)
 * await using newest = await startClickHouse({ generation: 'latest' }) // ClickHouse 26.9
 * console.log(newest.line, newest.generation) // '26.9' 'modern'
 * ```
 */
export async function startClickHouse(options: StartClickHouseOptions = {}): Promise<ClickHouseServer> {
  const url = process.env.CLICKHOUSE_URL
  if (url && !options.local) return fillVersion(externalServer(url))
  const asked = options.generation === undefined ? requestedLine() : lineOf(options.generation)
  const command = options.command ?? (await localServerCommand(asked))
  if (command) return fillVersion(await startLocal(options, command))
  if (!options.local && (await dockerAvailable())) return fillVersion(await startDockerClickHouse())
  throw new Error(installHint)
}
