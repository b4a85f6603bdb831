import { spawn } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { which } from './bench-tools.js'
import type { BenchPaths } from './variant-launch.js'

/**
 * The Python packages of the reference's `pip freeze`, pinned to its versions so the
 * peers run the code the reference measured (its `zstd==1.5.7.3` is yanked from PyPI and
 * unused without compression, so it is left out).
 */
export const pythonPeerPackages = [
  'clickhouse-driver==0.2.11',
  'clickhouse-connect==1.4.2',
  'clickhouse-cityhash==1.0.2.5',
  'lz4==4.4.5',
  'requests==2.34.2',
  'ujson==5.13.0',
  'pyarrow==25.0.0',
  'numpy==2.4.6',
  'pandas==3.0.3',
]

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
        join(paths.peers, 'python'),
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
