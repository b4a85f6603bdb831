/**
 * Everything the process prints while a block runs: console calls, direct writes to
 * stdout/stderr and process warnings. A secret must appear in none of it.
 */
export interface OutputCapture {
  /** What was printed so far. */
  text(): string
  /** Restores console, stdout and stderr. */
  dispose(): void
}

export function captureOutput(): OutputCapture {
  const chunks: string[] = []
  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const
  const saved = methods.map((name) => [name, console[name]] as const)
  for (const name of methods) {
    const original = console[name]
    console[name] = (...args: unknown[]) => {
      chunks.push(args.map(String).join(' '))
      original.apply(console, args)
    }
  }
  const streams = [process.stdout, process.stderr] as const
  const writes = streams.map((stream) => stream.write)
  streams.forEach((stream, index) => {
    const original = writes[index]!
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'))
      return (original as (...args: unknown[]) => boolean).call(stream, chunk, ...rest)
    }) as typeof stream.write
  })
  const onWarning = (warning: Error) =>
    chunks.push(`${warning.name}: ${warning.message}\n${warning.stack ?? ''}`)
  process.on('warning', onWarning)
  return {
    text: () => chunks.join('\n'),
    dispose: () => {
      for (const [name, original] of saved) console[name] = original
      streams.forEach((stream, index) => {
        stream.write = writes[index]!
      })
      process.off('warning', onWarning)
    },
  }
}
