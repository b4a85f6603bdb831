import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkConfig, loadConfig } from './cli-config.js'
import { type CliIo, exitCodes, runCli } from './cli-program.js'
import { describeServer } from './server-description.js'

let cwd: string

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'clickwire-codegen-unit-'))
})

afterAll(async () => {
  await rm(cwd, { recursive: true, force: true })
})

/** Runs the CLI in-process with captured output; nothing here reaches a server. */
async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = ''
  let stderr = ''
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    env,
    cwd,
  }
  const code = await runCli(args, io)
  return { code, stdout, stderr }
}

describe('runCli without a server', () => {
  it('prints help with exit 0 and the version', async () => {
    const help = await cli(['--help'])
    expect(help.code).toBe(exitCodes.ok)
    expect(help.stdout).toMatch(/^Usage: clickwire-codegen \[options\]/)
    const version = await cli(['--version'])
    expect(version.code).toBe(exitCodes.ok)
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('help shows each default once, in words, and --timeout', async () => {
    const { stdout } = await cli(['--help'])
    expect(stdout).not.toContain('(default: [])')
    const text = stdout.replace(/\s+/g, ' ')
    expect(text).toContain(
      "--database <name> database to read; repeat for several (keys become 'db.table') (default: the connection's database) --include",
    )
    expect(text).toContain(
      '--include <glob> read only tables matching the glob (table or db.table); repeatable --exclude',
    )
    expect(text).toContain('--exclude <glob> leave out tables matching the glob; repeatable --out')
    expect(text).toContain(
      '--timeout <seconds> longest wait for the server to answer each introspection query, then exit 2 (default: 30) -h',
    )
  })

  it('exits 3 on unknown options and bad choices', async () => {
    expect(await cli(['--nope'])).toEqual({
      code: exitCodes.failed,
      stdout: '',
      stderr: "error: unknown option '--nope'\n",
    })
    const dates = await cli(['--dates', 'iso'])
    expect(dates.code).toBe(exitCodes.failed)
    expect(dates.stderr).toContain('Allowed choices are string, date.')
  })

  it('needs a URL and --out for --verify', async () => {
    expect((await cli([])).stderr).toBe(
      'clickwire-codegen: no server: pass --url, set url in the config file, or set CLICKHOUSE_URL\n',
    )
    const verify = await cli(['--verify'], { CLICKHOUSE_URL: 'clickhouse://127.0.0.1:1' })
    expect(verify).toEqual({
      code: exitCodes.failed,
      stdout: '',
      stderr: 'clickwire-codegen: --verify needs --out (or out in the config file)\n',
    })
  })

  it('refuses a --timeout that is not a positive number of seconds', async () => {
    for (const value of ['0', '-1', 'soon', '']) {
      const result = await cli(['--timeout', value, '--url', 'clickhouse://127.0.0.1:1'])
      expect(result).toEqual({
        code: exitCodes.failed,
        stdout: '',
        stderr: `error: option '--timeout <seconds>' argument '${value}' is invalid. a number of seconds above 0 is expected.\n`,
      })
    }
  })

  it('refuses a URL it cannot read without echoing its password', async () => {
    const result = await cli(['--url', 'ftp://u:Secret-4321@host/db'])
    expect(result.code).toBe(exitCodes.failed)
    expect(result.stderr).toContain('cannot read the client URL')
    expect(result.stderr).not.toContain('Secret-4321')
  })

  it('reports a missing or broken config file', async () => {
    const missing = await cli(['--config', 'nope.json'])
    expect(missing.code).toBe(exitCodes.failed)
    expect(missing.stderr).toBe(`clickwire-codegen: config file ${join(cwd, 'nope.json')} does not exist\n`)
    await writeFile(join(cwd, 'broken.json'), '{ "url": ')
    const broken = await cli(['--config', 'broken.json'])
    expect(broken.code).toBe(exitCodes.failed)
    expect(broken.stderr).toContain(`${join(cwd, 'broken.json')}: `)
  })
})

describe('a server that accepts connections and never answers', () => {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
  })
  let port = 0
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as { port: number }).port
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })

  // The bound is --timeout; the test's own limit is vitest's 60 s, far above it on any machine.
  it.each([
    ['http', (port: number) => `http://someone:Secret-1@127.0.0.1:${port}/`],
    ['native', (port: number) => `clickhouse://someone:Secret-1@127.0.0.1:${port}/`],
  ])(
    'over %s: exits 2 after --timeout with a message that names the server and the flag',
    async (kind, url) => {
      const result = await cli(['--url', url(port), '--timeout', '0.5', '--quiet'])
      expect(result.code).toBe(exitCodes.cannotConnect)
      expect(result.stdout).toBe('')
      const shown =
        kind === 'http' ? `http://someone@127.0.0.1:${port}` : `clickhouse://someone@127.0.0.1:${port}`
      const detail =
        kind === 'http'
          ? /query [0-9a-f-]{36} ran longer than 500 ms/
          : /connecting to 127\.0\.0\.1:\d+ timed out after \d+ ms \(no Hello from the server\)/
      expect(result.stderr).toMatch(
        new RegExp(
          `^clickwire-codegen: cannot connect to ${shown.replaceAll('.', '\\.')}: ${detail.source}; raise --timeout \\(now 0\\.5 s\\) if the server is only slow\n$`,
        ),
      )
      expect(result.stderr).not.toContain('Secret-1')
    },
    60_000,
  )
})

describe('config files', () => {
  it('checks every key and value', () => {
    expect(checkConfig({ url: 'x', database: ['a', 'b'], int64: 'number', camelCase: true }, 'c')).toEqual({
      url: 'x',
      database: ['a', 'b'],
      int64: 'number',
      camelCase: true,
    })
    expect(() => checkConfig([], 'c')).toThrow('c: the config must be an object')
    expect(() => checkConfig({ int64: 'huge' }, 'c')).toThrow(
      'c: int64 must be one of bigint, number, string',
    )
    expect(() => checkConfig({ include: [1] }, 'c')).toThrow(
      'c: include must be a string or an array of strings',
    )
    expect(() => checkConfig({ print: 'yes' }, 'c')).toThrow('c: print must be true or false')
    expect(() => checkConfig({ url: 5 }, 'c')).toThrow('c: url must be a string')
    expect(checkConfig({ timeout: 2.5 }, 'c')).toEqual({ timeout: 2.5 })
    expect(() => checkConfig({ timeout: 0 }, 'c')).toThrow('c: timeout must be a number above 0')
    expect(() => checkConfig({ timeout: '5' }, 'c')).toThrow('c: timeout must be a number above 0')
    expect(() => checkConfig({ verify: true }, 'c')).toThrow('c: unknown key "verify"')
  })

  it('finds the config file in the working directory, JSON before modules', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clickwire-codegen-config-'))
    try {
      expect(await loadConfig(dir)).toEqual({ config: {}, path: undefined })
      await writeFile(join(dir, 'clickwire-codegen.config.mjs'), 'export default { out: "from-mjs.ts" }\n')
      expect(await loadConfig(dir)).toEqual({
        config: { out: 'from-mjs.ts' },
        path: join(dir, 'clickwire-codegen.config.mjs'),
      })
      await writeFile(join(dir, 'clickwire-codegen.config.json'), '{ "out": "from-json.ts" }')
      expect((await loadConfig(dir)).config).toEqual({ out: 'from-json.ts' })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('describeServer', () => {
  it('shows scheme, user, hosts and database, never the password', () => {
    expect(describeServer('clickhouse://u:secret@h:9001/db?compression=zstd')).toBe(
      'clickhouse://u@h:9001/db',
    )
    expect(describeServer('clickhouses://h1,h2:9441')).toBe('clickhouses://h1:9440,h2:9441')
    expect(describeServer('http://u:secret@[::1]:8124/?database=db&password=secret')).toBe(
      'http://u@[::1]:8124?database=db',
    )
    expect(describeServer('https://h/proxy/ch')).toBe('https://h:8443/proxy/ch')
    expect(describeServer('nonsense://u:secret@h/?password=secret')).toBe('nonsense://u:***@h/')
  })
})
