import { spawnSync } from 'node:child_process'
import { accessSync, constants, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, release, totalmem, type } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { findClientCommand } from '@clickwire/testing'
import type { MachineInfo, PeerInfo } from './bench-results.js'
import type { ClientId } from './scenario-catalog.js'
import type { BenchPaths, BenchTools } from './variant-launch.js'

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** A program on PATH, like `which`. */
export function which(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder && executable(join(folder, name))) return join(folder, name)
  }
  return undefined
}

function firstLine(file: string, args: readonly string[], env?: NodeJS.ProcessEnv): string | undefined {
  const result = spawnSync(file, args, {
    encoding: 'utf8',
    timeout: 20_000,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (result.status !== 0) return undefined
  return result.stdout.trim().split('\n')[0]
}

/** The real Python interpreter (not a version manager's shim) and its version. */
function findPython(): { file: string; version: string } | undefined {
  const python = which('python3')
  if (!python) return undefined
  const line = firstLine(python, ['-c', 'import sys; print(sys.executable, sys.version.split()[0])'])
  const [file, version] = line?.split(' ') ?? []
  return file && version ? { file, version } : undefined
}

/** The programs this machine has for the benchmark. */
export function findTools(paths: BenchPaths): BenchTools & { pythonVersion?: string | undefined } {
  const python = findPython()
  const chgo = join(paths.peers, 'bin', 'chgo-bench')
  const gnuTime = ['/usr/bin/time', which('time')].find(
    (candidate) =>
      candidate && executable(candidate) && (firstLine(candidate, ['--version']) ?? '').includes('GNU'),
  )
  return {
    node: process.execPath,
    python: python?.file,
    pythonVersion: python?.version,
    clickhouseClient: findClientCommand(),
    curl: which('curl'),
    chgo: executable(chgo) ? chgo : undefined,
    gnuTime,
  }
}

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1]
    if (pretty) return `${pretty}, ${type()} ${release()}`
  } catch {}
  return `${type()} ${release()}`
}

/** CPU, cores, memory, OS and runtime versions, for the report header. */
export function describeThisMachine(tools: {
  pythonVersion?: string | undefined
  chgo?: string | undefined
}): MachineInfo {
  const goVersion = tools.chgo && which('go') ? firstLine('go', ['env', 'GOVERSION']) : undefined
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    memoryBytes: totalmem(),
    os: osName(),
    node: process.version,
    python: tools.pythonVersion,
    go: goVersion,
  }
}

function packageVersion(name: string): string | undefined {
  try {
    // The package's own package.json, found from its resolved entry point.
    let folder = dirname(createRequire(import.meta.url).resolve(name))
    for (let depth = 0; depth < 5; depth++) {
      try {
        const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
          name?: string
          version?: string
        }
        if (manifest.name === name) return manifest.version
      } catch {}
      folder = dirname(folder)
    }
  } catch {}
  return undefined
}

/** Versions of the Python packages in the peers folder, by import name. */
function pythonPackages(tools: BenchTools, paths: BenchPaths): Record<string, string> {
  if (!tools.python) return {}
  const script = [
    'import importlib.metadata as m, json',
    'names = {"requests": "requests", "ujson": "ujson", "clickhouse_driver": "clickhouse-driver", "clickhouse_connect": "clickhouse-connect", "clickhouse_connect_core": "clickhouse-connect-core", "pyarrow": "pyarrow", "numpy": "numpy", "pandas": "pandas"}',
    'found = {}',
    'for module, dist in names.items():',
    '    try: found[module] = m.version(dist)',
    '    except Exception: pass',
    'print(json.dumps(found))',
  ].join('\n')
  const line = firstLine(tools.python, ['-c', script], {
    ...process.env,
    PYTHONPATH: [join(paths.peers, 'python'), process.env.PYTHONPATH].filter(Boolean).join(':'),
  })
  try {
    return line ? (JSON.parse(line) as Record<string, string>) : {}
  } catch {
    return {}
  }
}

function goModuleVersion(paths: BenchPaths): string | undefined {
  try {
    return /github\.com\/ClickHouse\/ch-go (v[\w.-]+)/.exec(
      readFileSync(join(paths.root, 'go', 'go.mod'), 'utf8'),
    )?.[1]
  } catch {
    return undefined
  }
}

/**
 * Whether the workspace packages the children import differ from the commit (tracked files
 * only): the report must not name a commit for code that is not in it.
 */
function packagesChanged(paths: BenchPaths): boolean {
  const result = spawnSync('git', ['-C', paths.root, 'diff', '--quiet', 'HEAD', '--', '../../packages'], {
    timeout: 20_000,
    stdio: 'ignore',
  })
  return result.status === 1
}

/** Which peers can run here, with their versions; the rest say why not. */
export function describePeers(tools: BenchTools, paths: BenchPaths): Map<ClientId, PeerInfo> {
  const python = pythonPackages(tools, paths)
  const setupHint = 'not installed (run setup-peers)'
  const peers = new Map<ClientId, PeerInfo>()
  const add = (client: ClientId, version: string | undefined, unavailable?: string) =>
    peers.set(client, { client, version, unavailable })
  const gitCommit = firstLine('git', ['-C', paths.root, 'rev-parse', '--short', 'HEAD'])
  const clickwire = gitCommit
    ? `commit ${gitCommit}${packagesChanged(paths) ? ' with uncommitted changes in packages/' : ''}`
    : undefined
  add('clickwire-native', clickwire)
  add('clickwire-http', clickwire)
  add('clickhouse-js', packageVersion('@clickhouse/client'))
  const cli = tools.clickhouseClient
  add(
    'clickhouse-client',
    cli
      ? firstLine(cli.file, [...cli.args, '--version'])
          ?.replace(/^ClickHouse client version /, '')
          .replace(/\.$/, '')
      : undefined,
    cli ? undefined : 'not installed',
  )
  add(
    'curl',
    tools.curl ? firstLine(tools.curl, ['--version'])?.split(' ')[1] : undefined,
    tools.curl ? undefined : 'not installed',
  )
  add('node-fetch', `undici in Node.js ${process.version}`)
  const noPython = tools.python ? undefined : 'python3 is not installed'
  add(
    'python-requests',
    python.requests && python.ujson ? `requests ${python.requests}, ujson ${python.ujson}` : undefined,
    noPython ?? (python.requests && python.ujson ? undefined : `requests/ujson ${setupHint}`),
  )
  add(
    'clickhouse-driver',
    python.clickhouse_driver,
    noPython ?? (python.clickhouse_driver ? undefined : setupHint),
  )
  // connect_scenarios.py decodes Native with the compiled codec exactly when its wheel is there.
  const connectCodec = python.clickhouse_connect_core
    ? `native_codec=rust, clickhouse-connect-core ${python.clickhouse_connect_core}`
    : 'native_codec=python'
  add(
    'clickhouse-connect',
    python.clickhouse_connect ? `${python.clickhouse_connect} (${connectCodec})` : undefined,
    noPython ?? (python.clickhouse_connect ? undefined : setupHint),
  )
  add('ch-go', goModuleVersion(paths), tools.chgo ? undefined : setupHint)
  return peers
}
