// `pnpm bench` from the repository root runs the bench's own command line, so whatever
// follows it (`--help`, `--full --out results`, `setup-peers`) reaches `node dist/cli.js`:
// pnpm appends a script's extra arguments to its last command. Through `turbo run bench`
// they went to turbo, which printed its own help or refused the option.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const scripts = (path: string) =>
  (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { scripts: Record<string, string> })
    .scripts

describe('pnpm bench', () => {
  it('builds the packages the bench imports, then hands its arguments to the bench CLI', () => {
    const root = scripts('../../../package.json').bench!
    expect(root).toBe(
      'turbo run build --filter=@clickwire/bench^... --output-logs=errors-only && pnpm --dir apps/bench bench',
    )
    // The last command is the bench's own script, which ends with the CLI on the newest LTS.
    expect(scripts('../package.json').bench).toMatch(
      /&& \.\.\/\.\.\/scripts\/node-line\.sh lts node dist\/cli\.js$/,
    )
  })
})
