import { join } from 'node:path'
import type { ClickHouseCommand } from '@clickwire/testing'
import { intColumns, stringColumns } from './ontime-schema.js'
import type { Variant } from './scenario-catalog.js'
import { insertTable, isNumbersWork, queryOf } from './scenario-queries.js'

/** The server under test, as the children need it. */
export interface BenchServer {
  readonly host: string
  readonly nativePort: number
  readonly httpPort: number
  readonly user: string
  readonly password: string
  /** `clickhouse://` URL with the credentials, for clickwire children. */
  readonly nativeUrl: string
  /** `http://` URL with the credentials, for clickwire children. */
  readonly httpUrl: string
  /** `http://host:port` without credentials. */
  readonly httpBase: string
}

/** Where the bench's own files and the optional peers are. */
export interface BenchPaths {
  /** apps/bench */
  readonly root: string
  readonly dist: string
  readonly python: string
  readonly peers: string
  readonly data: string
}

/** Programs found on this machine (undefined: not installed). */
export interface BenchTools {
  readonly node: string
  /** What runs clickwire's own variants (`--runtime`); the bench's Node when absent. */
  readonly clickwire?: { readonly file: string; readonly prefix: readonly string[] } | undefined
  readonly python?: string | undefined
  readonly clickhouseClient?: ClickHouseCommand | undefined
  readonly curl?: string | undefined
  readonly chgo?: string | undefined
  /** GNU time, for the peak RSS of programs that cannot report their own. */
  readonly gnuTime?: string | undefined
}

/** How to start one measured process. */
export interface LaunchSpec {
  readonly file: string
  readonly args: readonly string[]
  readonly env: Readonly<Record<string, string | undefined>>
  /** `self`: the process prints its own `@@bench` report; `external`: timed from outside. */
  readonly measure: 'self' | 'external'
  readonly stdinFile?: string | undefined
  readonly stdinText?: string | undefined
  /** Output goes straight to /dev/null (text formats of external programs). */
  readonly stdoutToNull?: boolean | undefined
}

/** A point of a section's axis: a cutoff date or a ch-bench row count. */
export type PointArgument = string

/** The Native file `clickhouse-client` inserts for a cutoff. */
export function nativeFileFor(paths: BenchPaths, cutoff: string, rows: number): string {
  return join(paths.data, `ontime-${cutoff}-${rows}.native`)
}

function baseEnv(server: BenchServer): Record<string, string | undefined> {
  return {
    ...process.env,
    BENCH_HOST: server.host,
    BENCH_NATIVE_PORT: String(server.nativePort),
    BENCH_HTTP_PORT: String(server.httpPort),
    BENCH_USER: server.user,
    BENCH_PASSWORD: server.password,
    BENCH_NATIVE_URL: server.nativeUrl,
    BENCH_HTTP_URL: server.httpUrl,
    BENCH_HTTP_BASE: server.httpBase,
    BENCH_STRING_COLUMNS: stringColumns.join(', '),
    BENCH_INT_COLUMNS: intColumns.join(', '),
  }
}

/** Why a variant cannot run here, or undefined when it can. */
export function missingTool(
  variant: Variant,
  tools: BenchTools,
  unavailable: ReadonlyMap<string, string>,
): string | undefined {
  const known = unavailable.get(variant.client)
  if (known) return known
  switch (variant.client) {
    case 'clickhouse-client':
      return tools.clickhouseClient ? undefined : 'clickhouse-client is not installed'
    case 'curl':
      return tools.curl ? undefined : 'curl is not installed'
    case 'ch-go':
      return tools.chgo ? undefined : 'ch-go is not built (run setup-peers)'
    case 'python-requests':
    case 'clickhouse-driver':
    case 'clickhouse-connect':
      return tools.python ? undefined : 'python3 is not installed'
    default:
      return undefined
  }
}

/**
 * The command line of one run of a variant at one point. `rows` is the cutoff's row
 * count (for the insert's Native file name).
 */
export function launchFor(
  variant: Variant,
  point: PointArgument,
  context: { server: BenchServer; paths: BenchPaths; tools: BenchTools; rows?: number | undefined },
): LaunchSpec {
  const { server, paths, tools } = context
  const env: Record<string, string | undefined> = {
    ...baseEnv(server),
    // Only the @<revision> copies of clickwire's variants carry one; the others speak their own.
    BENCH_PROTOCOL_REVISION:
      variant.protocolRevision === undefined ? undefined : String(variant.protocolRevision),
  }
  const { work } = variant
  const node = (script: string, args: string[]): LaunchSpec => ({
    file: tools.node,
    args: [join(paths.dist, script), ...args],
    env,
    measure: 'self',
  })
  // clickwire's variants run on the runtime `--runtime` picked; the peers stay on Node.
  const clickwire = (script: string, args: string[]): LaunchSpec =>
    tools.clickwire
      ? {
          file: tools.clickwire.file,
          args: [...tools.clickwire.prefix, join(paths.dist, script), ...args],
          env,
          measure: 'self',
        }
      : node(script, args)
  const python = (script: string): LaunchSpec => {
    // OpenBLAS core-type overrides slow a current numpy down; they are unset together.
    const { OPENBLAS_CORETYPE: _core, OPENBLAS_L2_SIZE: _l2, ...rest } = env
    const pythonPath = [join(paths.peers, 'python'), paths.python, process.env.PYTHONPATH]
    return {
      file: tools.python ?? 'python3',
      args: [join(paths.python, script), work, point],
      env: { ...rest, PYTHONPATH: pythonPath.filter(Boolean).join(':') },
      measure: 'self',
    }
  }
  const query = queryOf(work, point)
  // The drop-in for @clickhouse/client (`@clickwire/client/compat`), on either transport.
  if (
    variant.format === 'compat' &&
    (variant.client === 'clickwire-native' || variant.client === 'clickwire-http')
  )
    return clickwire('child-clickwire-compat.js', [
      variant.client === 'clickwire-native' ? 'native' : 'http',
      work,
      point,
    ])
  switch (variant.client) {
    case 'clickwire-native':
      return clickwire('child-clickwire.js', ['native', work, point, variant.compression ?? 'default'])
    case 'clickwire-http':
      return clickwire('child-clickwire.js', [
        'http',
        work,
        point,
        ...(variant.format ? [variant.format] : []),
      ])
    case 'clickhouse-js':
      return node('child-clickhouse-js.js', [work, point, ...(variant.format ? [variant.format] : [])])
    case 'node-fetch':
      return node('child-fetch.js', [work, point])
    case 'python-requests':
      return python('requests_scenarios.py')
    case 'clickhouse-driver':
      return python('driver_scenarios.py')
    case 'clickhouse-connect':
      return python('connect_scenarios.py')
    case 'ch-go':
      return {
        file: tools.chgo ?? 'chgo-bench',
        args: isNumbersWork(work) ? [work, point] : ['ontime', work, point],
        env: { ...env, BENCH_COMPRESSION: variant.compression ?? 'none' },
        measure: 'self',
      }
    case 'curl': {
      const format = variant.format ?? 'TabSeparated'
      const url = `${server.httpBase}/?query=${encodeURIComponent(`${query} FORMAT ${format}`)}`
      return {
        file: tools.curl ?? 'curl',
        // Credentials go in a config on stdin, not on the command line.
        args: ['--silent', '--show-error', '--fail', '--output', '/dev/null', '--config', '-', url],
        env,
        measure: 'external',
        stdinText: `user = "${server.user}:${server.password}"\n`,
      }
    }
    case 'clickhouse-client': {
      const command = tools.clickhouseClient ?? { file: 'clickhouse-client', args: [] }
      const common = [
        ...command.args,
        '--host',
        server.host,
        '--port',
        String(server.nativePort),
        '--user',
        server.user,
        ...(server.password ? ['--password', server.password] : []),
        ...(variant.compression ? ['--compression', variant.compression === 'none' ? '0' : '1'] : []),
        // Named, as clickwire names it: 26.9's default network_compression_method is ZSTD(3).
        ...(variant.compression === 'lz4' ? ['--network_compression_method', 'lz4'] : []),
      ]
      if (work === 'insert') {
        if (context.rows === undefined) throw new Error('an insert needs the row count of its cutoff')
        return {
          file: command.file,
          args: [...common, '--query', `INSERT INTO ${insertTable} FORMAT Native`],
          env,
          measure: 'external',
          stdinFile: nativeFileFor(paths, point, context.rows),
        }
      }
      return {
        file: command.file,
        args: [...common, '--query', query, '--format', variant.format ?? 'Null'],
        env,
        measure: 'external',
        stdoutToNull: true,
      }
    }
  }
}
