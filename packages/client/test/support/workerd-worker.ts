// Runs a worker in a local workerd, the way a Cloudflare Workers user deploys one: the entry
// bundled by esbuild with wrangler's conditions (`workerd`, `worker`, `browser`), `.wasm`
// imports kept as WebAssembly modules (what wrangler hands the runtime precompiled), and a
// workerd config whose outbound network allows the loopback, where the test server listens.
import { type ChildProcess, spawn } from 'node:child_process'
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { freePorts, runtimeBinary } from '@clickwire/testing'
import { build } from 'esbuild'

/** The compatibility date of the pinned workerd (its release date). */
const compatibilityDate = '2026-11-17'

/** A workerd serving one bundled worker on a loopback port. */
export interface WorkerdWorker {
  /** `http://127.0.0.1:<port>` of the worker. */
  readonly url: string
  /** What workerd printed so far (for failure messages). */
  output(): string
  stop(): Promise<void>
}

/** Bundles `entry` as wrangler would; returns the bundle and the `.wasm` files it imports. */
async function bundle(entry: string, dir: string): Promise<{ wasm: string[] }> {
  const wasm = new Set<string>()
  await build({
    entryPoints: [entry],
    outfile: join(dir, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser', '@clickwire/source'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    logLevel: 'error',
    plugins: [
      {
        name: 'wasm-modules',
        setup(builder) {
          // As wrangler does: a `.wasm` import stays an import of a module the runtime compiles.
          builder.onResolve({ filter: /\.wasm$/ }, (args) => {
            const file = join(args.resolveDir, args.path)
            wasm.add(file)
            return { path: `./${basename(file)}`, external: true }
          })
        },
      },
    ],
  })
  return { wasm: [...wasm] }
}

/** What the worker's outbound network trusts besides nothing: the test server's CA (PEM texts). */
export interface WorkerOptions {
  readonly trustedCertificates?: readonly string[] | undefined
}

function config(port: number, wasm: readonly string[], options: WorkerOptions): string {
  const trusted = (options.trustedCertificates ?? []).map((pem) => JSON.stringify(pem)).join(', ')
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    ...wasm.map((file) => `(name = "${basename(file)}", wasm = embed "${basename(file)}")`),
  ]
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local", "private", "public"], tlsOptions = (trustedCertificates = [${trusted}]))),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [${modules.join(', ')}],
  compatibilityDate = "${compatibilityDate}",
  globalOutbound = "loopback",
);
`
}

/** Bundles `entry`, starts `workerd serve` on a free port and waits until it answers. */
export async function startWorker(entry: string, options: WorkerOptions = {}): Promise<WorkerdWorker> {
  const dir = await mkdtemp(join(tmpdir(), 'clickwire-workerd-'))
  const { wasm } = await bundle(entry, dir)
  for (const file of wasm) await copyFile(file, join(dir, basename(file)))
  const [port] = await freePorts(1)
  await writeFile(join(dir, 'config.capnp'), config(port!, wasm, options))
  let output = ''
  const child: ChildProcess = spawn(runtimeBinary('workerd'), ['serve', join(dir, 'config.capnp')], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
    await rm(dir, { recursive: true, force: true })
  }
  // workerd answers once it listens; a config it refuses ends the process instead.
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`workerd exited with ${child.exitCode}:\n${output}`)
    }
    try {
      await fetch(`${url}/`)
      break
    } catch (error) {
      if (tries >= 300) {
        await stop()
        throw new Error(`workerd did not listen on ${url}: ${(error as Error).message}\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return { url, output: () => output, stop }
}
