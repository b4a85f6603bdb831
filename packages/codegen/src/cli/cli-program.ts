import { readFileSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { ClickHouseError, type Client, ConnectionError, createClient, TimeoutError } from '@clickwire/client'
import { redactSecrets, UsageError, type ValueMapping } from '@clickwire/protocol'
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { type CodegenWarning, formatWarning } from '../codegen-options.js'
import { verifyFile } from '../generate-types.js'
import { introspect } from '../schema-introspector.js'
import { render } from '../schema-renderer.js'
import { type CodegenConfig, configFileNames, loadConfig } from './cli-config.js'
import { type ProgressStream, progressReporter } from './cli-progress-reporter.js'
import { describeServer } from './server-description.js'

/** Exit codes of `clickwire-codegen`. */
export const exitCodes = {
  /** Done (and with `--verify`: the file is up to date). */
  ok: 0,
  /** `--verify`: the file is stale or missing. */
  stale: 1,
  /** The server could not be reached or refused the credentials. */
  cannotConnect: 2,
  /** Anything else: bad flags or config, unknown database, a server error. */
  failed: 3,
} as const

/** What the CLI reads and writes, so tests can run it in-process. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown }
  readonly stderr: ProgressStream
  readonly env: Readonly<Record<string, string | undefined>>
  readonly cwd: string
}

/** Server error codes that mean the credentials were refused: as bad as no connection. */
const authenticationCodes = new Set([192, 193, 194, 516])

interface Flags {
  url?: string
  database?: string[]
  include?: string[]
  exclude?: string[]
  out?: string
  print?: boolean
  camelCase?: boolean
  int64?: ValueMapping['int64']
  dates?: ValueMapping['dates']
  decimal?: ValueMapping['decimal']
  verify?: boolean
  config?: string
  quiet?: boolean
  timeout?: number
}

/** `--timeout` when neither the flag nor the config file gives one, in seconds. */
export const defaultTimeoutSeconds = 30

function seconds(value: string): number {
  const parsed = Number(value)
  // commander turns this error into "option '--timeout <seconds>' argument '…' is invalid. …".
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0)
    throw new InvalidArgumentError('a number of seconds above 0 is expected.')
  return parsed
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value]

function version(): string {
  try {
    const json = readFileSync(new URL('../../package.json', import.meta.url), 'utf8')
    return (JSON.parse(json) as { version: string }).version
  } catch {
    return 'unknown'
  }
}

function program(io: CliIo, run: (flags: Flags) => Promise<void>): Command {
  return (
    new Command('clickwire-codegen')
      .description(
        'Reads ClickHouse tables and writes TypeScript types for them: one interface per table and a Kysely DB interface,\n' +
          'typed exactly as @clickwire/client returns values under the same int64 / dates / decimal options.',
      )
      .version(version(), '-V, --version')
      .option(
        '--url <url>',
        'server URL, e.g. clickhouse://user:password@host:9000/db (default: $CLICKHOUSE_URL)',
      )
      // No commander default here: it would print "(default: [])" after our own text.
      .addOption(
        new Option(
          '--database <name>',
          "database to read; repeat for several (keys become 'db.table') (default: the connection's database)",
        ).argParser(collect),
      )
      .addOption(
        new Option(
          '--include <glob>',
          'read only tables matching the glob (table or db.table); repeatable',
        ).argParser(collect),
      )
      .addOption(
        new Option('--exclude <glob>', 'leave out tables matching the glob; repeatable').argParser(collect),
      )
      .option('--out <file>', 'write the module to this file')
      .option('--print', 'print the module to stdout (the default without --out)')
      .option(
        '--camel-case',
        "camelCase keys, for Kysely's CamelCasePlugin only (the client keeps ClickHouse names)",
      )
      .addOption(
        new Option('--int64 <mode>', '64-bit and wider integers (default: bigint)').choices([
          'bigint',
          'number',
          'string',
        ]),
      )
      .addOption(
        new Option('--dates <mode>', 'Date and DateTime values (default: string)').choices([
          'string',
          'date',
        ]),
      )
      .addOption(
        new Option('--decimal <mode>', 'Decimal values (default: string)').choices(['string', 'number']),
      )
      .option(
        '--verify',
        'do not write: exit 1 and print a diff when --out differs from what would be generated',
      )
      .option(
        '--config <file>',
        `config file whose keys mirror the flags (default: ${configFileNames.join(', ')})`,
      )
      .option('--quiet', 'no progress output')
      .option(
        '--timeout <seconds>',
        `longest wait for the server to answer each introspection query, then exit 2 (default: ${defaultTimeoutSeconds})`,
        seconds,
      )
      .addHelpText(
        'after',
        [
          '',
          'Exit codes: 0 done / up to date, 1 --verify found the file stale, 2 cannot connect, 3 other errors.',
          '',
          'Examples:',
          '  clickwire-codegen --url clickhouse://127.0.0.1:9000/default --out src/db.ts',
          '  clickwire-codegen --database analytics --database billing --include "events_*" --print',
          '  clickwire-codegen --out src/db.ts --verify   # in CI',
        ].join('\n'),
      )
      .exitOverride()
      .configureOutput({
        writeOut: (text) => io.stdout.write(text),
        writeErr: (text) => io.stderr.write(text),
      })
      .action(run)
  )
}

function list(value: string | readonly string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : [...value]
}

/**
 * Runs `clickwire-codegen` with `argv` (the arguments after the program name) and
 * resolves with the exit code; see {@link exitCodes}.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['--url', 'clickhouse://127.0.0.1:9000', '--print'], {
 *   stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(),
 * })
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let url: string | undefined
  let timeoutSeconds = defaultTimeoutSeconds
  let exit: number = exitCodes.ok
  const fail = (code: number, message: string) => {
    io.stderr.write(`clickwire-codegen: ${redactSecrets(message)}\n`)
    return code
  }
  try {
    await program(io, async (flags) => {
      const { config } = await loadConfig(io.cwd, flags.config)
      url = flags.url ?? config.url ?? io.env.CLICKHOUSE_URL
      if (url === undefined || url === '') {
        throw new UsageError('no server: pass --url, set url in the config file, or set CLICKHOUSE_URL')
      }
      timeoutSeconds = flags.timeout ?? config.timeout ?? defaultTimeoutSeconds
      exit = await generateFromFlags(flags, config, url, timeoutSeconds, io)
    }).parseAsync([...argv], { from: 'user' })
    return exit
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
        ? exitCodes.ok
        : exitCodes.failed
    }
    const server = url === undefined ? 'the server' : describeServer(url)
    if (TimeoutError.isInstance(error)) {
      return fail(
        exitCodes.cannotConnect,
        `cannot connect to ${server}: ${(error as Error).message}; raise --timeout (now ${timeoutSeconds} s) if the server is only slow`,
      )
    }
    if (ConnectionError.isInstance(error)) {
      return fail(exitCodes.cannotConnect, `cannot connect to ${server}: ${(error as Error).message}`)
    }
    if (ClickHouseError.isInstance(error) && authenticationCodes.has((error as ClickHouseError).code)) {
      return fail(exitCodes.cannotConnect, `cannot connect to ${server}: ${(error as Error).message}`)
    }
    return fail(exitCodes.failed, error instanceof Error ? error.message : String(error))
  }
}

async function generateFromFlags(
  flags: Flags,
  config: CodegenConfig,
  url: string,
  timeoutSeconds: number,
  io: CliIo,
): Promise<number> {
  const out = flags.out ?? config.out
  const print = flags.print ?? config.print ?? false
  if (flags.verify && out === undefined)
    throw new UsageError('--verify needs --out (or out in the config file)')
  const quiet = flags.quiet ?? config.quiet ?? false
  const reporter = quiet ? undefined : progressReporter(io.stderr)
  const warnings: CodegenWarning[] = []
  let text: string
  let tableCount: number
  // A host that accepts the connection and never answers would otherwise hold an HTTP
  // request for the transport's 5-minute receive limit (and native past its handshake).
  const client: Client = createClient({ url, requestTimeoutMs: Math.ceil(timeoutSeconds * 1000) })
  try {
    const schema = await introspect(client, {
      databases: flags.database ?? list(config.database),
      include: flags.include ?? list(config.include),
      exclude: flags.exclude ?? list(config.exclude),
      onProgress: reporter?.onProgress,
    })
    reporter?.stop()
    tableCount = schema.tables.length
    text = render(schema, {
      camelCase: flags.camelCase ?? config.camelCase,
      int64: flags.int64 ?? config.int64,
      dates: flags.dates ?? config.dates,
      decimal: flags.decimal ?? config.decimal,
      onWarning: (warning) => warnings.push(warning),
    })
    if (tableCount === 0) io.stderr.write(`warning: no table matched in ${schema.databases.join(', ')}\n`)
  } finally {
    reporter?.stop()
    await client.close()
  }
  for (const warning of warnings) io.stderr.write(`warning: ${formatWarning(warning)}\n`)
  const tables = `${tableCount} table${tableCount === 1 ? '' : 's'}`

  if (flags.verify) {
    const path = resolve(io.cwd, out!)
    const result = await verifyFile(path, text)
    if (result.upToDate) {
      io.stderr.write(`${out} is up to date\n`)
      return exitCodes.ok
    }
    if (!result.exists) {
      io.stderr.write(`${out} does not exist: run clickwire-codegen without --verify to create it\n`)
      return exitCodes.stale
    }
    io.stdout.write(`--- ${out} (on disk)\n+++ ${out} (from the server now)\n${result.diff}\n`)
    io.stderr.write(`${out} is stale: run clickwire-codegen without --verify to update it\n`)
    return exitCodes.stale
  }
  if (print || out === undefined) {
    io.stdout.write(text)
    return exitCodes.ok
  }
  const path = resolve(io.cwd, out)
  const current = await readFile(path, 'utf8').catch(() => undefined)
  if (current === text) {
    io.stderr.write(`${out} is up to date (${tables})\n`)
    return exitCodes.ok
  }
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
  io.stderr.write(
    `wrote ${out} (${tables}${warnings.length ? `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : ''})\n`,
  )
  return exitCodes.ok
}
