import type { BenchReport } from './bench-results.js'

const gib = 1024 ** 3

/** The lines every report starts with: machine, runtimes, server, dataset, method, peers. */
export function describeMachine(report: BenchReport): string[] {
  const { machine, server, dataset } = report
  const runtimes = [
    `Node.js ${machine.node}`,
    machine.clickwireRuntime && machine.clickwireRuntime !== `Node.js ${machine.node}`
      ? `clickwire on ${machine.clickwireRuntime}`
      : undefined,
    machine.python ? `Python ${machine.python}` : undefined,
    machine.go ? `Go ${machine.go}` : undefined,
  ].filter(Boolean)
  const load =
    dataset.source === 'existing'
      ? 'already loaded'
      : `loaded in ${dataset.seconds.toFixed(1)} s through clickwire's native insert (${Math.round(dataset.rowsPerSecond).toLocaleString('en-US')} rows/s inserting)`
  const cutoffs = Object.entries(dataset.cutoffRows)
    .map(([date, rows]) => `< ${date}: ${rows}`)
    .join(', ')
  const peers = report.peers
    .map((peer) =>
      peer.unavailable
        ? `${peer.client} (not run: ${peer.unavailable})`
        : `${peer.client}${peer.version ? ` ${peer.version}` : ''}`,
    )
    .join('; ')
  return [
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${(machine.memoryBytes / gib).toFixed(1)} GiB RAM, ${machine.os}`,
    `Runtimes: ${runtimes.join(', ')}`,
    `ClickHouse server: ${server.version} (${server.generation ? `${server.generation} generation${server.line ? `, line ${server.line}` : ''}; ` : ''}${server.revision ? `protocol revision ${server.revision} with clickwire; ` : ''}${server.source})`,
    `Dataset: perftest.ontime, ${dataset.rows} rows (${dataset.source === 'existing' ? 'from an earlier load' : dataset.source}), ${load}; rows per cutoff: ${cutoffs}`,
    `Method: ${report.mode} run, ${report.repetitions} repetitions interleaved round-robin, median reported; each run is its own process; ${report.wallSeconds.toFixed(0)} s in all${report.trafficChecked ? "; every run's rows checked on the server's NetworkSendBytes / NetworkReceiveBytes" : ''}`,
    `Clients: ${peers}`,
    ...(report.load
      ? [
          `Load: 1-minute load average ${report.load.start.toFixed(1)} at the start, ${report.load.end.toFixed(1)} at the end, on ${machine.cores} cores${Math.max(report.load.start, report.load.end) > machine.cores ? ': other processes competed with the runs, so only ratios within the run mean anything' : ''}`,
        ]
      : []),
  ]
}
