import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, inject, it } from 'vitest'
import {
  clickhouseClient,
  defaultUsers,
  findServerCommand,
  lineOfVersion,
  modernHandshakeAbort,
  modernKeeperQueryId,
  requestedLine,
  startClickHouse,
} from '../src/index.js'

const shared = inject('clickhouse')
const local = shared.source === 'local' && findServerCommand() !== undefined
const modern = shared.generation === 'modern'
/** A wrong password: 18.16 answers 193 WRONG_PASSWORD, 26.x 516 AUTHENTICATION_FAILED. */
const wrongPasswordCode = modern ? 516 : 193

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitGone(pid: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (!alive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return !alive(pid)
}

async function httpQuery(url: string, query: string, auth?: { user: string; password: string }) {
  const headers: Record<string, string> = {}
  if (auth) headers.Authorization = `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`
  const response = await fetch(url, { method: 'POST', body: query, headers })
  return { status: response.status, text: await response.text() }
}

describe('the shared server of the run', () => {
  it('answers SELECT version() over TCP (clickhouse-client) and over HTTP', async () => {
    const overTcp = (await clickhouseClient(shared, 'SELECT version()')).trim()
    const overHttp = await httpQuery(shared.httpUrl, 'SELECT version()')
    expect(overHttp.status).toBe(200)
    expect(overHttp.text.trim()).toBe(overTcp)
    expect(overTcp).toBe(shared.version)
    expect(overTcp).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('knows its release line, the one CLICKWIRE_SERVER asks for', () => {
    expect(shared.line).toBe(lineOfVersion(shared.version))
    const asked = requestedLine()
    if (shared.source === 'local' && asked) expect(shared.line).toBe(asked)
    if (shared.line === '26.9') expect(shared.version).toMatch(/^26\.9\./)
  })

  it.runIf(shared.source === 'local' && modern)(
    'runs its keeper query under modernKeeperQueryId, so tests can leave it out of system.processes',
    async () => {
      const keeper = await httpQuery(
        shared.httpUrl,
        "SELECT query_id FROM system.processes WHERE query LIKE 'SELECT sleepEachRow(1) FROM system.numbers%'",
      )
      expect(keeper).toEqual({ status: 200, text: `${modernKeeperQueryId}\n` })
    },
  )

  it.runIf(shared.hasTestUsers)('refuses a wrong password and accepts the right one over HTTP', async () => {
    const { user, password } = shared.users.password
    // 18.16 has no currentUser(); the processes table names the user of the asking query.
    const whoAmI = "SELECT user FROM system.processes WHERE query LIKE '%who-am-i-probe%'"
    const good = await httpQuery(shared.httpUrl, whoAmI, { user, password })
    expect(good).toEqual({ status: 200, text: `${user}\n` })
    const bad = await httpQuery(shared.httpUrl, 'SELECT 1', { user, password: `${password}x` })
    expect(bad.status).not.toBe(200)
    expect(bad.text).toMatch(new RegExp(`Code: ${wrongPasswordCode}\\D`))
  })

  it.runIf(shared.hasTestUsers && !modern)(
    `refuses a wrong password and accepts the right one over TCP (clickhouse-client)${modern ? ` (skipped on modern: ${modernHandshakeAbort})` : ''}`,
    async () => {
      const { user, password } = shared.users.password
      const whoAmI = "SELECT user FROM system.processes WHERE query LIKE '%who-am-i-probe%'"
      await expect(clickhouseClient(shared, 'SELECT 1', { user, password: 'wrong' })).rejects.toThrow(
        new RegExp(`Code: ${wrongPasswordCode}\\D`),
      )
      expect((await clickhouseClient(shared, whoAmI, { user, password })).trim()).toBe(user)
    },
  )

  it.runIf(shared.hasTestUsers)('lets the readonly user read but not write', async () => {
    const { user, password } = shared.users.readonly
    const read = await httpQuery(shared.httpUrl, 'SELECT 42', { user, password })
    expect(read).toEqual({ status: 200, text: '42\n' })
    const write = await httpQuery(shared.httpUrl, 'CREATE TABLE harness_ro_probe (x UInt8) ENGINE = Memory', {
      user,
      password,
    })
    expect(write.status).not.toBe(200)
    expect(write.text).toMatch(/Code: 164/)
    await expect(
      clickhouseClient(shared, 'CREATE TABLE harness_ro_probe (x UInt8) ENGINE = Memory', { user, password }),
    ).rejects.toThrow(/Code: 164/)
    const exists = await httpQuery(shared.httpUrl, 'EXISTS TABLE harness_ro_probe')
    expect(exists.text).toBe('0\n')
  })

  it.runIf(shared.secureHttpUrl !== undefined)('serves HTTPS with the harness CA', async () => {
    const { get } = await import('node:https')
    const body = await new Promise<string>((resolve, reject) => {
      get(`${shared.secureHttpUrl}/?query=SELECT%201`, { ca: shared.ca }, (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () => resolve(text))
      }).once('error', reject)
    })
    expect(body).toBe('1\n')
  })
})

describe.runIf(local)('local servers', () => {
  it('runs two servers at once on different ports', async () => {
    await using a = await startClickHouse({ local: true })
    await using b = await startClickHouse({ local: true })
    expect(new Set([a.ports.tcp, a.ports.http, b.ports.tcp, b.ports.http]).size).toBe(4)
    expect(a.dir).not.toBe(b.dir)
    const [ra, rb] = await Promise.all([
      httpQuery(a.httpUrl, 'SELECT 1 + 1'),
      clickhouseClient(b, 'SELECT 2 + 2'),
    ])
    expect(ra.text).toBe('2\n')
    expect(rb).toBe('4\n')
  })

  it('stops the process and deletes the dir on stop(), and stop() is idempotent', async () => {
    const server = await startClickHouse({ local: true })
    const pid = server.pid!
    const dir = server.dir!
    expect(alive(pid)).toBe(true)
    expect(existsSync(join(dir, 'config.xml'))).toBe(true)
    await server.stop()
    await server.stop()
    expect(await waitGone(pid)).toBe(true)
    expect(existsSync(dir)).toBe(false)
  })

  it('kills and restarts a server on the same ports', async () => {
    await using server = await startClickHouse({ local: true })
    const before = server.pid!
    await server.kill()
    expect(server.pid).toBeUndefined()
    expect(await waitGone(before)).toBe(true)
    await expect(fetch(`${server.httpUrl}/ping`)).rejects.toThrow()
    await server.restart()
    expect(server.pid).not.toBe(before)
    expect((await httpQuery(server.httpUrl, 'SELECT 7')).text).toBe('7\n')
  })

  it('forms a two-shard cluster that a Distributed table spans', async () => {
    await using first = await startClickHouse({ local: true, shards: 2 })
    expect(first.nodes).toHaveLength(2)
    const [a, b] = first.nodes
    const clusters = await httpQuery(
      a!.httpUrl,
      `SELECT count() FROM system.clusters WHERE cluster = '${first.clusterName}'`,
    )
    expect(clusters.text).toBe('2\n')
    for (const [index, node] of first.nodes.entries()) {
      await httpQuery(node.httpUrl, 'CREATE TABLE t (x UInt32) ENGINE = MergeTree ORDER BY x')
      await httpQuery(node.httpUrl, `INSERT INTO t SELECT number + ${index * 1000} FROM numbers(10)`)
    }
    await httpQuery(
      a!.httpUrl,
      `CREATE TABLE dist AS t ENGINE = Distributed(${first.clusterName}, default, t)`,
    )
    const total = await httpQuery(a!.httpUrl, 'SELECT count(), sum(x) FROM dist')
    expect(total.text).toBe(`20\t${45 + 45 + 10_000}\n`)
    const pidB = b!.pid!
    await first.stop()
    expect(await waitGone(pidB)).toBe(true)
    expect(existsSync(b!.dir!)).toBe(false)
  })

  it.skipIf(modern)(
    `makes TLS ports that a client trusting the harness CA can use${modern ? ' (skipped on modern: this engine opens no TLS listeners, SYSTEM START LISTEN TCP SECURE is refused)' : ''}`,
    async () => {
      await using server = await startClickHouse({ local: true, tls: true })
      expect(server.secureNativeUrl).toMatch(/^clickhouses:\/\/localhost:\d+$/)
      const { connect } = await import('node:tls')
      const authorized = await new Promise<boolean>((resolve, reject) => {
        const socket = connect({ host: 'localhost', port: server.ports.tcpSecure!, ca: server.ca }, () => {
          resolve(socket.authorized)
          socket.destroy()
        })
        socket.once('error', reject)
      })
      expect(authorized).toBe(true)
      const rejected = await new Promise<string>((resolve) => {
        const socket = connect({ host: 'localhost', port: server.ports.tcpSecure! }, () =>
          resolve('connected'),
        )
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
      })
      expect(rejected).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE')
    },
  )

  describe('after a deliberately failing test run', () => {
    const fixture = fileURLToPath(new URL('./fixtures/', import.meta.url))

    async function runFixture(mode: 'fail' | 'kill'): Promise<{ pid: number; dir: string }> {
      const work = await mkdtemp(join(tmpdir(), 'clickwire-fixture-'))
      const report = join(work, 'server.json')
      try {
        const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url))
        const child = spawn(
          process.execPath,
          [vitest, 'run', '--config', join(fixture, 'vitest.config.ts')],
          {
            cwd: fixture,
            stdio: ['ignore', 'pipe', 'pipe'],
            env: { ...process.env, CLICKHOUSE_URL: '', FIXTURE_MODE: mode, FIXTURE_REPORT: report },
          },
        )
        let output = ''
        child.stdout.on('data', (chunk) => {
          output += chunk
        })
        child.stderr.on('data', (chunk) => {
          output += chunk
        })
        const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
        expect(code, output).not.toBe(0)
        const { pid, dir } = JSON.parse(readFileSync(report, 'utf8')) as { pid: number; dir: string }
        return { pid, dir }
      } finally {
        await rm(work, { recursive: true, force: true })
      }
    }

    it.each(['fail', 'kill'] as const)('leaves no server process and no temp dir (%s)', async (mode) => {
      const { pid, dir } = await runFixture(mode)
      expect(await waitGone(pid)).toBe(true)
      const deadline = Date.now() + 10_000
      while (existsSync(dir) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
      expect(existsSync(dir)).toBe(false)
    })
  })
})

it('uses the default accounts unless CLICKHOUSE_URL says otherwise', () => {
  if (shared.source === 'external') expect(shared.hasTestUsers).toBe(false)
  else expect(shared.users).toEqual(defaultUsers)
})
