import type { BenchReport, Cell, SectionResult } from '../../src/bench-results.js'

/** A cell with one run, as the runner records it. */
export function measured(ms: number, rss: number): Cell {
  return { runs: [{ elapsedMs: ms, maxRssBytes: rss }], medianMs: ms, medianRssBytes: rss }
}

const points = [
  { id: '45k', label: '45k', argument: '2017-01-04', expectedRows: 45202 },
  { id: '697k', label: '697k', argument: '2017-02-18', expectedRows: 697813 },
]

/** A small fixed result set for the renderers' exact-output tests. */
export const parsedSection: SectionResult = {
  id: 'parsed',
  title: 'Parsed rows',
  axis: 'cutoff',
  points,
  variants: [
    {
      id: 'parsed/cw-native-rows',
      label: 'clickwire native rows() (4)',
      client: 'clickwire-native',
      ours: true,
      cells: { '45k': measured(120, 95e6), '697k': measured(1460, 1.234e9) },
    },
    {
      id: 'parsed/driver-rows',
      label: 'clickhouse-driver Native (4)',
      client: 'clickhouse-driver',
      ours: false,
      cells: { '45k': measured(180, 167e6), '697k': measured(4670, 1.7e9) },
    },
    {
      id: 'parsed/connect-rows',
      label: 'clickhouse-connect (14)',
      client: 'clickhouse-connect',
      ours: false,
      cells: {
        '45k': { runs: [], error: 'not installed (run setup-peers)' },
        '697k': { runs: [], error: 'not installed' },
      },
    },
  ],
}

export const chbenchSection: SectionResult = {
  id: 'chbench',
  title: 'ch-bench: SELECT number FROM system.numbers_mt',
  axis: 'numbers',
  points: [{ id: '500M', label: '500M', argument: '500000000', expectedRows: 500e6 }],
  variants: [
    {
      id: 'chbench/cw-native-lz4',
      label: 'clickwire native LZ4',
      client: 'clickwire-native',
      ours: true,
      cells: { '500M': measured(4700, 80e6) },
    },
    {
      id: 'chbench/cli-lz4',
      label: 'clickhouse-client LZ4',
      client: 'clickhouse-client',
      ours: false,
      cells: { '500M': measured(4470, 59e6) },
    },
  ],
}

export const fixtureReport: BenchReport = {
  mode: 'quick',
  generatedAt: '2026-11-29T12:00:00.000Z',
  repetitions: 3,
  wallSeconds: 123.4,
  machine: {
    cpu: 'AMD EPYC',
    cores: 2,
    memoryBytes: 24 * 1024 ** 3,
    os: 'Debian GNU/Linux 12 (bookworm), Linux 6.1',
    node: 'v20.19.0',
    python: '3.11.7',
  },
  server: {
    version: '18.16.1',
    generation: 'legacy',
    source: 'a throwaway local server started by the bench',
  },
  dataset: {
    source: 'generated',
    rows: 697813,
    seconds: 10.5,
    insertSeconds: 6,
    rowsPerSecond: 116302.2,
    cutoffRows: { '2017-01-04': 45202, '2017-02-18': 697813 },
  },
  peers: [
    { client: 'clickwire-native', version: 'commit abc1234' },
    { client: 'clickhouse-driver', version: '0.2.11' },
    { client: 'clickhouse-connect', unavailable: 'not installed (run setup-peers)' },
  ],
  sections: [parsedSection, chbenchSection],
}
