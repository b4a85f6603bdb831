import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { ClickHouseCommand } from './server-binary.js'
import { keeperSource } from './server-keeper.js'

/** What the keeper reports about its child, one JSON line each. */
export type KeeperEvent =
  | { event: 'started'; pid: number }
  | { event: 'exited'; code: number | null; signal: string | null }
  | { event: 'error'; message: string }
  | { event: 'stopped' }

/**
 * One local server process (ClickHouse or ZooKeeper) behind its keeper, which kills it and
 * deletes `dir` when the test process ends. The child's output goes to `dir/log/stdout.log`.
 */
export class LocalNode {
  pid: number | undefined
  exited = false
  /** Set while an exit is expected (kill or stop), so it is not reported as a crash. */
  expectingExit = false
  private readonly keeper: ChildProcess
  private readonly listeners = new Set<(event: KeeperEvent) => void>()
  private readonly gone: Promise<void>

  constructor(
    readonly dir: string,
    command: ClickHouseCommand,
  ) {
    const args = command.argsFor?.(dir) ?? [...command.args, `--config-file=${join(dir, 'config.xml')}`]
    this.keeper = spawn(process.execPath, ['-e', keeperSource, command.file, JSON.stringify(args), dir], {
      stdio: ['pipe', 'pipe', 'ignore'],
    })
    this.gone = new Promise((resolve) => this.keeper.once('exit', () => resolve()))
    const lines = createInterface({ input: this.keeper.stdout! })
    lines.on('line', (line) => {
      let event: KeeperEvent
      try {
        event = JSON.parse(line) as KeeperEvent
      } catch {
        return
      }
      if (event.event === 'started') {
        this.pid = event.pid
        this.exited = false
      } else if (event.event === 'exited') this.exited = true
      for (const listener of this.listeners) listener(event)
    })
    // The keeper must not keep the test process alive; when the test process exits, the
    // closed pipe tells the keeper to clean up.
    this.keeper.unref()
    for (const stream of [this.keeper.stdin, this.keeper.stdout]) {
      ;(stream as unknown as { unref?: () => void } | null)?.unref?.()
    }
  }

  private send(command: string): void {
    if (this.keeper.stdin && !this.keeper.stdin.destroyed) this.keeper.stdin.write(`${command}\n`)
  }

  private next(predicate: (event: KeeperEvent) => boolean): Promise<KeeperEvent> {
    return new Promise((resolve) => {
      const listener = (event: KeeperEvent) => {
        if (!predicate(event)) return
        this.listeners.delete(listener)
        resolve(event)
      }
      this.listeners.add(listener)
    })
  }

  onExit(callback: () => void): () => void {
    const listener = (event: KeeperEvent) => {
      if (event.event === 'exited') callback()
    }
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async kill(): Promise<void> {
    if (this.exited || this.pid === undefined) return
    this.expectingExit = true
    const exited = this.next((event) => event.event === 'exited')
    this.send('kill')
    await exited
  }

  start(): Promise<KeeperEvent> {
    this.expectingExit = false
    const started = this.next((event) => event.event === 'started')
    this.send('start')
    return started
  }

  async stop(): Promise<void> {
    // The keeper is unref'd so a forgotten server never keeps the process alive; while we
    // wait for it to finish, it must.
    this.keeper.ref()
    this.expectingExit = true
    this.send('stop')
    this.keeper.stdin?.end()
    await this.gone
  }
}
