import { runCli } from './cli-program.js'

/** The process entry of the `clickwire-codegen` bin: sets the exit code, never throws. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  })
}
