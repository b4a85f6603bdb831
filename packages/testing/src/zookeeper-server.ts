import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePorts } from './free-port.js'
import { LocalNode } from './server-process.js'

/** Where Debian's `zookeeper` package (3.8) puts its jars. */
const javaDir = '/usr/share/java'
/** The jars the standalone server needs: no Netty (NIO is the default), a silent logger. */
const jars = ['zookeeper', 'zookeeper-jute', 'slf4j-api', 'slf4j-nop', 'metrics-core', 'commons-io']

/** Why cluster tests skip on a machine without ZooKeeper. */
export const zooKeeperInstallHint =
  'ZooKeeper is not installed (apt-get install -y zookeeper; scripts/bootstrap.sh does it)'

function javaProgram(): string | undefined {
  const candidates = [process.env.JAVA_HOME && join(process.env.JAVA_HOME, 'bin', 'java'), '/usr/bin/java']
  return candidates.find((path): path is string => !!path && existsSync(path))
}

/** Whether a throwaway ZooKeeper can be started here (Debian's package and a Java runtime). */
export function zooKeeperInstalled(): boolean {
  return javaProgram() !== undefined && jars.every((jar) => existsSync(join(javaDir, `${jar}.jar`)))
}

/** A running throwaway ZooKeeper on loopback. */
export interface ZooKeeperServer {
  readonly host: string
  readonly port: number
  /** Its private folder (zoo.cfg, data, log), deleted when it stops. */
  readonly dir: string
  /** The Java process id while it runs. */
  readonly pid: number | undefined
  /** Stops it and deletes its folder. Safe to call twice. */
  stop(): Promise<void>
}

/** The answer to a four-letter command, or undefined when nobody answers. */
function fourLetter(host: string, port: number, word: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    let text = ''
    socket.setTimeout(1000, () => socket.destroy())
    socket.once('connect', () => socket.write(word))
    socket.on('data', (data) => {
      text += data.toString('utf8')
    })
    socket.once('close', () => resolve(text || undefined))
    socket.once('error', () => resolve(undefined))
  })
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Starts a standalone ZooKeeper for a replicated test cluster: its own zoo.cfg and dataDir
 * in a temp dir, a free loopback port, owned by a keeper like the ClickHouse servers (it
 * dies with the test process). Resolves once it serves sessions (`srvr` names its mode).
 */
export async function startZooKeeper(
  options: { tempDir?: string; startTimeoutMs?: number } = {},
): Promise<ZooKeeperServer> {
  const java = javaProgram()
  if (!java || !zooKeeperInstalled()) throw new Error(zooKeeperInstallHint)
  const host = '127.0.0.1'
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'clickwire-zk-'))
  await Promise.all(['log', 'data'].map((name) => mkdir(join(dir, name))))
  const [port] = await freePorts(1)
  await writeFile(
    join(dir, 'zoo.cfg'),
    [
      // A short tick: sessions of a killed ClickHouse expire in seconds, not half a minute.
      'tickTime=500',
      `dataDir=${dir}/data`,
      `clientPort=${port}`,
      `clientPortAddress=${host}`,
      'maxClientCnxns=0',
      'admin.enableServer=false',
      '4lw.commands.whitelist=ruok,srvr',
      // Throwaway data: no fsync per write, no snapshots worth keeping.
      'forceSync=no',
      '',
    ].join('\n'),
  )
  const classpath = jars.map((jar) => join(javaDir, `${jar}.jar`)).join(':')
  const args = [
    // Small and quick to start: it serves a handful of test tables on a 2-core machine.
    '-Xmx128m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-cp',
    classpath,
    'org.apache.zookeeper.server.quorum.QuorumPeerMain',
    join(dir, 'zoo.cfg'),
  ]
  const node = new LocalNode(dir, { file: java, args, argsFor: () => args })
  const timeoutMs = options.startTimeoutMs ?? 60_000
  const deadline = Date.now() + timeoutMs
  for (let wait = 50; ; wait = Math.min(wait * 1.5, 250)) {
    // `ruok` answers as soon as the port is open; `srvr` names the mode only once the server
    // serves sessions. Before that it closes every connection unanswered, and an 18.16 node
    // that starts then crashes in its DDL worker when the retries run out.
    if ((await fourLetter(host, port!, 'srvr'))?.includes('Mode: ')) break
    if (node.exited || Date.now() > deadline) {
      const log = await readFile(join(dir, 'log', 'stdout.log'), 'utf8').catch(() => '')
      await node.stop()
      throw new Error(`ZooKeeper did not start within ${timeoutMs} ms:\n${log.slice(-3000)}`)
    }
    await delay(wait)
  }
  let stopped: Promise<void> | undefined
  return {
    host,
    port: port!,
    dir,
    get pid() {
      return node.exited ? undefined : node.pid
    },
    stop() {
      stopped ??= node.stop()
      return stopped
    },
  }
}
