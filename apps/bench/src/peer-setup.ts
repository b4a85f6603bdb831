import { spawn } from 'node:child_process'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { which } from './bench-tools.js'
import type { BenchPaths } from './variant-launch.js'

/**
 * The Python packages of the reference's `pip freeze`, pinned to its versions so the
 * peers run the code the reference measured (its `zstd==1.5.7.3` is yanked from PyPI and
 * unused without compression, so it is left out). clickhouse-connect is the current 1.12
 * instead, with clickhouse-connect-core (its `rust` extra: the compiled `_ch_core` Native
 * codec that `native_codec='rust'` selects), so the peer measured is its fastest one.
 */
export const pythonPeerPackages = [
  'clickhouse-driver==0.2.11',
  'clickhouse-connect==1.12.0',
  'clickhouse-connect-core==0.2.3',
  'clickhouse-cityhash==1.0.2.5',
  'lz4==4.4.5',
  'requests==2.34.2',
  'ujson==5.13.0',
  'pyarrow==25.0.0',
  'numpy==2.4.6',
  'pandas==3.0.3',
]

/**
 * The `*.dist-info` folders in `target` of pinned packages at another version than their pin.
 * `pip install --target --upgrade` replaces a package's modules but leaves the old version's
 * dist-info beside the new one, and `importlib.metadata` (which the report's version line
 * reads) may then answer with the old version.
 */
export function staleDistInfo(entries: readonly string[], pins: readonly string[]): string[] {
  const wanted = new Map(
    pins.map((pin) => {
      const [name, version] = pin.split('==') as [string, string]
      return [name.toLowerCase().replace(/[-.]/g, '_'), version] as const
    }),
  )
  return entries.filter((entry) => {
    const match = /^(.+)-([^-]+)\.dist-info$/.exec(entry)
    if (!match) return false
    const version = wanted.get(match[1]!.toLowerCase().replace(/[-.]/g, '_'))
    return version !== undefined && version !== match[2]
  })
}

function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; log: (line: string) => void },
): Promise<boolean> {
  options.log(`$ ${file} ${args.join(' ')}`)
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    child.once('error', (error) => {
      options.log(`  failed: ${error.message}`)
      resolve(false)
    })
    child.once('close', (code) => resolve(code === 0))
  })
}

/**
 * Installs the optional peers into `apps/bench/.peers/`, never system-wide: the Python
 * drivers with `pip install --target`, and the ch-go program built with GOPATH,
 * GOMODCACHE and GOCACHE inside that folder. Each step is independent; the bench runs
 * whatever got installed.
 */
export async function setupPeers(
  paths: BenchPaths,
  log: (line: string) => void,
): Promise<{ python: boolean; go: boolean }> {
  await mkdir(join(paths.peers, 'bin'), { recursive: true })
  let python = false
  const python3 = which('python3')
  if (python3) {
    const target = join(paths.peers, 'python')
    await mkdir(target, { recursive: true })
    for (const stale of staleDistInfo(await readdir(target), pythonPeerPackages)) {
      log(`removing ${stale} (another version than the pin)`)
      await rm(join(target, stale), { recursive: true, force: true })
    }
    python = await run(
      python3,
      [
        '-m',
        'pip',
        'install',
        '--disable-pip-version-check',
        '--no-warn-script-location',
        '--quiet',
        '--upgrade',
        '--target',
        target,
        ...pythonPeerPackages,
      ],
      { log },
    )
    log(python ? 'Python peers installed.' : 'Python peers: pip failed (see above).')
  } else log('python3 is not installed: skipping clickhouse-driver and clickhouse-connect.')

  let go = false
  const goCommand = which('go')
  if (goCommand) {
    const goRoot = join(paths.peers, 'go')
    go = await run(goCommand, ['build', '-trimpath', '-o', join(paths.peers, 'bin', 'chgo-bench'), '.'], {
      cwd: join(paths.root, 'go'),
      env: {
        ...process.env,
        GOPATH: goRoot,
        GOMODCACHE: join(goRoot, 'pkg', 'mod'),
        GOCACHE: join(goRoot, 'cache'),
        GOFLAGS: '-modcacherw',
        GOTOOLCHAIN: 'local',
      },
      log,
    })
    log(go ? 'ch-go program built.' : 'ch-go: go build failed (see above).')
  } else log('go is not installed: skipping ch-go.')
  return { python, go }
}
