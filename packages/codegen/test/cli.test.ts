import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient } from '@clickwire/client'
import { freePorts, modernHandshakeAbort } from '@clickwire/testing'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { generate } from '../src/index.js'
import { typesDatabase } from './support/codegen-schema.js'

/**
 * The CLI as users run it: `node bin/clickwire-codegen.js` (the built dist, made by the
 * global setup) as a separate process, with its exit code, stdout and stderr.
 */

const server = inject('clickhouse')
const bin = fileURLToPath(new URL('../bin/clickwire-codegen.js', import.meta.url))
const verifyDatabase = 'codegen_verify'

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs the bin with a clean environment: no CLICKHOUSE_URL unless given. */
function run(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  const { CLICKHOUSE_URL: _omit, ...env } = process.env
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: options.cwd ?? workDir, env: { ...env, ...options.env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

let workDir: string

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'clickwire-codegen-cli-'))
  await using client = createClient(server.httpUrl)
  await client.command(`DROP DATABASE IF EXISTS ${verifyDatabase}`)
  await client.command(`CREATE DATABASE ${verifyDatabase}`)
  await client.command(
    `CREATE TABLE ${verifyDatabase}.orders (id UInt64, amount Decimal(12, 2)) ENGINE = MergeTree ORDER BY id`,
  )
  await client.command(`CREATE TABLE ${verifyDatabase}.customers (id UInt64, name String) ENGINE = Memory`)
})

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true })
})

/** The tables of codegen_types: 26.x also has modern_types, its view and events_merge (see schemaSqlOf). */
const typesTableCount = server.generation === 'modern' ? 9 : 6

describe(`clickwire-codegen on ${server.generation === 'modern' ? '26.x' : '18.16'}`, () => {
  it('--help lists every flag and exits 0', async () => {
    const result = await run(['--help'])
    expect(result.code).toBe(0)
    for (const flag of [
      '--url <url>',
      '--database <name>',
      '--include <glob>',
      '--exclude <glob>',
      '--out <file>',
      '--print',
      '--camel-case',
      '--int64 <mode>',
      '--dates <mode>',
      '--decimal <mode>',
      '--verify',
      '--config <file>',
      '--timeout <seconds>',
      '-h, --help',
    ])
      expect(result.stdout).toContain(flag)
    expect(result.stdout).toContain(
      'Exit codes: 0 done / up to date, 1 --verify found the file stale, 2 cannot connect',
    )
    expect(result.stderr).toBe('')
  })

  it('prints what generate() returns, reading CLICKHOUSE_URL, with plain progress lines off a terminal', async () => {
    const result = await run(
      ['--database', typesDatabase, '--include', 'events', '--include', 'all_types_view'],
      {
        env: { CLICKHOUSE_URL: server.nativeUrl },
      },
    )
    expect(result.code).toBe(0)
    await using client = createClient(server.nativeUrl)
    expect(result.stdout).toBe(
      await generate({ client, databases: [typesDatabase], include: ['events', 'all_types_view'] }),
    )
    expect(result.stderr).toBe(
      [
        `database ${typesDatabase} (1/1): 2 tables`,
        `  ${typesDatabase}.all_types_view (1/2): 9 columns`,
        `  ${typesDatabase}.events (2/2): 6 columns`,
        '',
      ].join('\n'),
    )
  })

  it('takes the mapping flags and --camel-case, over HTTP too', async () => {
    const result = await run([
      '--url',
      server.httpUrl,
      '--database',
      typesDatabase,
      '--include',
      'all_types_view',
      '--int64',
      'string',
      '--dates',
      'date',
      '--decimal',
      'number',
      '--camel-case',
      '--quiet',
    ])
    expect(result.code).toBe(0)
    expect(result.stderr).toBe('')
    expect(result.stdout).toContain(
      'Value mapping: int64 = string, dates = date, decimal = number; keys camel-cased',
    )
    expect(result.stdout).toContain('  u64: ColumnType<string, never, never>;\n')
    expect(result.stdout).toContain('  dt: ColumnType<Date, never, never>;\n')
    expect(result.stdout).toContain('  dec: ColumnType<number, never, never>;\n')
    expect(result.stdout).toContain('  lcNs: ColumnType<string | null, never, never>;\n')
  })

  it('--verify detects a schema change and passes again after regenerating', async () => {
    const args = ['--url', server.nativeUrl, '--database', verifyDatabase, '--out', 'src/db.ts']
    const missing = await run([...args, '--verify'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('src/db.ts does not exist')

    const written = await run(args)
    expect(written.code).toBe(0)
    expect(written.stderr).toContain('wrote src/db.ts (2 tables)')
    const text = await readFile(join(workDir, 'src/db.ts'), 'utf8')
    expect(text).toContain('export interface Orders {')
    expect((await run([...args, '--verify'])).code).toBe(0)

    await using client = createClient(server.httpUrl)
    await client.command(`ALTER TABLE ${verifyDatabase}.orders ADD COLUMN note Nullable(String)`)
    const stale = await run([...args, '--verify'])
    expect(stale.code).toBe(1)
    expect(stale.stderr).toContain('src/db.ts is stale')
    expect(stale.stdout).toContain('--- src/db.ts (on disk)\n+++ src/db.ts (from the server now)\n@@ ')
    expect(stale.stdout).toContain(
      '\n   amount: string;\n+  /** `Nullable(String)` */\n+  note: string | null;\n }\n',
    )
    // --verify never writes.
    expect(await readFile(join(workDir, 'src/db.ts'), 'utf8')).toBe(text)

    expect((await run(args)).code).toBe(0)
    const fresh = await run([...args, '--verify'])
    expect(fresh.code).toBe(0)
    expect(fresh.stderr).toContain('src/db.ts is up to date')
  })

  it('warns about unsupported types on stderr and types them unknown', async () => {
    const result = await run([
      '--url',
      server.nativeUrl,
      '--database',
      typesDatabase,
      '--include',
      'unsupported_types',
    ])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('  quantile_state: unknown;\n')
    expect(result.stderr).toMatch(
      /\nwarning: codegen_types\.unsupported_types\.quantile_state: .*quantiles.*; typed as unknown\n/,
    )
    expect(result.stderr).toMatch(
      /\nwarning: codegen_types\.unsupported_types\.uniq_array_state: .*typed as unknown\n/,
    )
  })

  it('says cannot connect, exits 2 and never shows the password', async () => {
    const [port] = await freePorts(1)
    const secret = 'S3cret-Pa55-never-shown'
    for (const url of [
      `clickhouse://someone:${secret}@127.0.0.1:${port}/analytics`,
      `http://someone:${secret}@127.0.0.1:${port}/?database=analytics&password=${secret}`,
    ]) {
      const result = await run(['--url', url, '--quiet'])
      expect(result.code).toBe(2)
      const shown = url.startsWith('http')
        ? `http://someone@127.0.0.1:${port}?database=analytics`
        : `clickhouse://someone@127.0.0.1:${port}/analytics`
      expect(result.stderr.startsWith(`clickwire-codegen: cannot connect to ${shown}: `)).toBe(true)
      expect(result.stderr).toMatch(/ECONNREFUSED.*\n$/)
      expect(result.stderr + result.stdout).not.toContain(secret)
    }
  })

  it.runIf(server.hasTestUsers && server.generation !== 'modern')(
    `treats refused credentials as cannot connect (exit 2), without the password (skipped on modern: ${modernHandshakeAbort})`,
    async () => {
      const wrong = 'Wrong-pa55-not-shown'
      const url = server.nativeUrl.replace('://', `://${server.users.password.user}:${wrong}@`)
      const result = await run(['--url', url, '--quiet'])
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(
        /^clickwire-codegen: cannot connect to clickhouse:\/\/clickwire_password@127\.0\.0\.1:\d+: /,
      )
      expect(result.stderr).not.toContain(wrong)
    },
  )

  it.runIf(server.hasTestUsers)(
    'treats credentials refused over HTTP as cannot connect (exit 2), without the password',
    async () => {
      const wrong = 'Wrong-pa55-not-shown'
      const url = server.httpUrl.replace('://', `://${server.users.password.user}:${wrong}@`)
      const result = await run(['--url', url, '--quiet'])
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(
        /^clickwire-codegen: cannot connect to http:\/\/clickwire_password@127\.0\.0\.1:\d+: /,
      )
      expect(result.stderr).not.toContain(wrong)
    },
  )

  it('names an unknown database and exits 3', async () => {
    const result = await run(['--url', server.nativeUrl, '--database', 'no_such_db', '--quiet'])
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(
      /^clickwire-codegen: unknown database "no_such_db": the server has .*"codegen_types"/,
    )
  })

  it('refuses bad flags and a missing URL with exit 3', async () => {
    const bad = await run(['--int64', 'huge'])
    expect(bad.code).toBe(3)
    expect(bad.stderr).toContain(
      "option '--int64 <mode>' argument 'huge' is invalid. Allowed choices are bigint, number, string.",
    )
    const noUrl = await run(['--print'])
    expect(noUrl.code).toBe(3)
    expect(noUrl.stderr).toBe(
      'clickwire-codegen: no server: pass --url, set url in the config file, or set CLICKHOUSE_URL\n',
    )
    const verifyWithoutOut = await run(['--url', server.nativeUrl, '--verify'])
    expect(verifyWithoutOut.code).toBe(3)
    expect(verifyWithoutOut.stderr).toContain('--verify needs --out')
  })

  it('reads a JSON or .mjs config file whose keys mirror the flags; flags win', async () => {
    const json = join(workDir, 'json-config')
    await mkdir(json)
    await writeFile(
      join(json, 'clickwire-codegen.config.json'),
      JSON.stringify({
        url: server.nativeUrl,
        database: typesDatabase,
        include: ['events'],
        int64: 'string',
        out: 'gen/db.ts',
      }),
    )
    const fromConfig = await run(['--quiet'], { cwd: json })
    expect(fromConfig.code).toBe(0)
    expect(await readFile(join(json, 'gen/db.ts'), 'utf8')).toContain('  id: string;\n')
    const overridden = await run(['--int64', 'number', '--print', '--quiet'], { cwd: json })
    expect(overridden.code).toBe(0)
    expect(overridden.stdout).toContain('  id: number;\n')

    const mjs = join(workDir, 'mjs-config')
    await mkdir(mjs)
    await writeFile(
      join(mjs, 'clickwire-codegen.config.mjs'),
      `export default { url: ${JSON.stringify(server.httpUrl)}, database: [${JSON.stringify(typesDatabase)}], include: 'events', camelCase: true, print: true, quiet: true }\n`,
    )
    const fromModule = await run([], { cwd: mjs })
    expect(fromModule.code).toBe(0)
    expect(fromModule.stdout).toContain('  id: bigint;\n')
    expect(fromModule.stdout).toContain('keys camel-cased')

    await writeFile(join(workDir, 'typo.json'), JSON.stringify({ databse: 'x' }))
    const typo = await run(['--config', 'typo.json'])
    expect(typo.code).toBe(3)
    expect(typo.stderr).toContain('unknown key "databse"')
  })

  it.runIf(existsSync('/usr/bin/script'))('shows a progress bar on a terminal', async () => {
    // util-linux `script` gives the process a pseudo-terminal, as an interactive shell would.
    const command = [process.execPath, bin, '--url', server.nativeUrl, '--database', typesDatabase, '--print']
      .map((part) => `'${part}'`)
      .join(' ')
    const result = await new Promise<Run>((resolve) => {
      execFile(
        '/usr/bin/script',
        ['-qec', command, '/dev/null'],
        { cwd: workDir, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      )
    })
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(
      new RegExp(`codegen_types \\[=+\\] ${typesTableCount}/${typesTableCount} tables`),
    )
    expect(result.stdout).not.toContain('database codegen_types (1/1)')
  })

  it("README's opening example writes what the README shows", async () => {
    const readme = await readFile(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8')
    const create = /clickhouse-client -q "(CREATE TABLE [^"]+)"/.exec(readme)?.[1]
    const command =
      /npx clickwire-codegen --url clickhouse:\/\/127\.0\.0\.1:9000\/default --out src\/db\.ts/.exec(readme)
    const shown = /```ts\n(\/\*\*\n \* Generated[\s\S]*?\n)```/.exec(readme)?.[1]
    expect([create !== undefined, command !== null, shown !== undefined]).toEqual([true, true, true])
    await using client = createClient(server.httpUrl)
    await client.command('DROP TABLE IF EXISTS default.events')
    await client.command(create!)
    const dir = join(workDir, 'readme')
    await mkdir(dir)
    const result = await run(['--url', `${server.nativeUrl}/default`, '--out', 'src/db.ts', '--quiet'], {
      cwd: dir,
    })
    expect(result.code).toBe(0)
    expect(await readFile(join(dir, 'src/db.ts'), 'utf8')).toBe(shown)
  })
})
