import type { Work } from './scenario-queries.js'

/** The programs compared. `clickwire-*` are ours; the rest are the peers. */
export type ClientId =
  | 'clickwire-native'
  | 'clickwire-http'
  | 'clickhouse-js'
  | 'clickhouse-client'
  | 'curl'
  | 'node-fetch'
  | 'python-requests'
  | 'clickhouse-driver'
  | 'clickhouse-connect'
  | 'ch-go'

export const clientIds: readonly ClientId[] = [
  'clickwire-native',
  'clickwire-http',
  'clickhouse-js',
  'clickhouse-client',
  'curl',
  'node-fetch',
  'python-requests',
  'clickhouse-driver',
  'clickhouse-connect',
  'ch-go',
]

export function isOurs(client: ClientId): boolean {
  return client === 'clickwire-native' || client === 'clickwire-http'
}

/** A section of the results table: a title and what its columns are. */
export interface Section {
  readonly id: string
  readonly title: string
  /** `cutoff`: one column per ontime row cutoff; `numbers`: one per ch-bench row count. */
  readonly axis: 'cutoff' | 'numbers'
}

export const sections: readonly Section[] = [
  { id: 'plain', title: 'Plain text without parsing', axis: 'cutoff' },
  { id: 'parsed', title: 'Parsed rows', axis: 'cutoff' },
  { id: 'iteration', title: 'Iteration over rows', axis: 'cutoff' },
  { id: 'strings', title: 'Iteration over string rows', axis: 'cutoff' },
  { id: 'ints', title: 'Iteration over int rows', axis: 'cutoff' },
  { id: 'arrow', title: 'Arrow tables', axis: 'cutoff' },
  { id: 'arrow-ints', title: 'Arrow tables, int columns', axis: 'cutoff' },
  { id: 'arrow-strings', title: 'Arrow tables, string columns', axis: 'cutoff' },
  { id: 'insert', title: 'Inserting rows', axis: 'cutoff' },
  { id: 'chbench', title: 'ch-bench: SELECT number FROM system.numbers_mt', axis: 'numbers' },
  {
    id: 'chbench-strings',
    title: 'ch-bench strings: SELECT toString(number) FROM system.numbers_mt',
    axis: 'numbers',
  },
]

/**
 * The native protocol revision the `@54488` variants force on clickwire
 * (`createClient({ protocolRevision })`): the last one before 54492, whose String columns
 * travel as one data blob behind cumulative UInt64 offsets instead of a varint length
 * before each value. Beside the default they measure what the new layout is worth.
 */
export const olderStringRevision = 54488

/** One row of a section: a client doing a work, with the reference's scenario number in its label. */
export interface Variant {
  readonly id: string
  readonly section: string
  readonly label: string
  readonly client: ClientId
  readonly work: Work
  /** Part of the quick run (the full run takes every variant). */
  readonly quick: boolean
  /** Native block compression (clickwire native, clickhouse-client, ch-go). */
  readonly compression?: 'lz4' | 'none'
  /** The output format a text client asks for; `ArrowStream` for clickwire HTTP: `queryArrow()`. */
  readonly format?: string
  /**
   * clickwire only: the highest native protocol revision it may speak (over HTTP it caps
   * `client_protocol_version`); unset, its own. Set on the copies {@link atRevision} makes.
   */
  readonly protocolRevision?: number
}

function variant(
  section: string,
  id: string,
  label: string,
  client: ClientId,
  work: Work,
  extra: Partial<Pick<Variant, 'quick' | 'compression' | 'format'>> = {},
): Variant {
  return { id: `${section}/${id}`, section, label, client, work, quick: extra.quick ?? true, ...extra }
}

/**
 * A clickwire variant again, forced to an older protocol revision: the id and label get
 * `@<revision>`, the rest (quick or not, format, compression) stays, so the two run side by
 * side in the same section and repetitions.
 */
export function atRevision(base: Variant, revision: number): Variant {
  if (!isOurs(base.client)) throw new Error(`${base.id}: only clickwire can be forced to a revision`)
  return {
    ...base,
    id: `${base.id}@${revision}`,
    label: `${base.label} @${revision}`,
    protocolRevision: revision,
  }
}

/** The variant an `@<revision>` copy was made from (its id without the suffix), or undefined. */
export function revisionBaseId(variant: Pick<Variant, 'id' | 'protocolRevision'>): string | undefined {
  if (variant.protocolRevision === undefined) return undefined
  return variant.id.slice(0, variant.id.lastIndexOf('@'))
}

/**
 * The clickwire variants whose results depend on how String columns travel, each followed
 * by its {@link olderStringRevision} copy: rows (4), string rows and columns (10), Arrow
 * string columns (23) decoded by clickwire, and ch-bench over `toString(number)`.
 * `queryArrow()` is left out: it reads the server's ArrowStream, whatever the revision.
 */
const stringLayoutIds: ReadonlySet<string> = new Set([
  'parsed/cw-native-rows',
  'parsed/cw-http-rows',
  'strings/cw-native-iterate',
  'strings/cw-native-columns',
  'strings/cw-http-iterate',
  'strings/cw-http-columns',
  'arrow-strings/cw-native-arrow',
  'arrow-strings/cw-http-arrow',
  'chbench-strings/cw-native-lz4',
  'chbench-strings/cw-native-lz4-blocks',
  'chbench-strings/cw-http',
  'chbench-strings/cw-http-blocks',
])

function withOlderStringRevision(list: readonly Variant[]): Variant[] {
  return list.flatMap((each) =>
    stringLayoutIds.has(each.id) ? [each, atRevision(each, olderStringRevision)] : [each],
  )
}

/**
 * The same client set over the ontime projections: iteration, strings, ints. The quick
 * run keeps clickwire HTTP, @clickhouse/client and clickhouse-connect only for the
 * full-row iteration.
 */
function iterationVariants(
  section: string,
  work: Work,
  columns: Work | undefined,
  numbers: string[],
): Variant[] {
  const [own, driver, connect] = numbers
  const httpQuick = columns === undefined
  return [
    variant(section, 'cw-native-iterate', `clickwire native for await (${own})`, 'clickwire-native', work),
    ...(columns
      ? [
          variant(
            section,
            'cw-native-columns',
            `clickwire native columns() (${own})`,
            'clickwire-native',
            columns,
          ),
        ]
      : []),
    variant(section, 'cw-http-iterate', `clickwire HTTP for await (${own})`, 'clickwire-http', work, {
      quick: httpQuick,
    }),
    ...(columns
      ? [
          variant(
            section,
            'cw-http-columns',
            `clickwire HTTP columns() (${own})`,
            'clickwire-http',
            columns,
            {
              quick: false,
            },
          ),
        ]
      : []),
    variant(section, 'chjs-stream', `@clickhouse/client JSONEachRow stream (${own})`, 'clickhouse-js', work, {
      quick: httpQuick,
    }),
    variant(section, 'driver-iter', `clickhouse-driver Native (${driver})`, 'clickhouse-driver', work),
    variant(section, 'connect-stream', `clickhouse-connect (${connect})`, 'clickhouse-connect', work, {
      quick: httpQuick,
    }),
    variant(section, 'chgo-blocks', `ch-go blocks (${own})`, 'ch-go', work),
    variant(section, 'cli-null', `clickhouse-client --format Null (${own})`, 'clickhouse-client', work, {
      format: 'Null',
    }),
  ]
}

function arrowVariants(section: string, work: Work, numbers: string[]): Variant[] {
  const [own, driver, connect] = numbers
  return [
    variant(section, 'cw-native-arrow', `clickwire native arrow() (${own})`, 'clickwire-native', work),
    variant(section, 'cw-http-arrow', `clickwire HTTP arrow() (${own})`, 'clickwire-http', work, {
      quick: false,
    }),
    variant(section, 'cw-http-arrow-stream', `clickwire HTTP queryArrow() (${own})`, 'clickwire-http', work, {
      format: 'ArrowStream',
    }),
    variant(section, 'driver-arrow', `clickhouse-driver use_numpy (${driver})`, 'clickhouse-driver', work),
    variant(section, 'connect-arrow', `clickhouse-connect (${connect})`, 'clickhouse-connect', work),
    variant(section, 'cli-null', `clickhouse-client --format Null (${own})`, 'clickhouse-client', work, {
      format: 'Null',
    }),
  ]
}

/**
 * Every variant, section by section, in table order. Labels carry the reference's
 * scenario numbers; a peer's label carries the number of the reference script it mirrors.
 */
export const variants: readonly Variant[] = withOlderStringRevision([
  variant('plain', 'curl-tsv', 'curl TSV (1)', 'curl', 'raw-tsv', { format: 'TabSeparated' }),
  variant('plain', 'curl-json', 'curl JSON (1)', 'curl', 'raw-json', { format: 'JSONEachRow', quick: false }),
  variant('plain', 'cli-tsv', 'clickhouse-client TSV (1)', 'clickhouse-client', 'raw-tsv', {
    format: 'TabSeparated',
  }),
  variant('plain', 'cli-json', 'clickhouse-client JSON (1)', 'clickhouse-client', 'raw-json', {
    format: 'JSONEachRow',
    quick: false,
  }),
  variant('plain', 'fetch-tsv', 'Node fetch TSV (1)', 'node-fetch', 'raw-tsv', { quick: false }),
  variant('plain', 'fetch-json', 'Node fetch JSON (1)', 'node-fetch', 'raw-json', { quick: false }),
  variant('plain', 'chjs-tsv', '@clickhouse/client TSV text() (1)', 'clickhouse-js', 'raw-tsv'),
  variant('plain', 'chjs-json', '@clickhouse/client JSON text() (1)', 'clickhouse-js', 'raw-json', {
    quick: false,
  }),
  variant('plain', 'requests-tsv', 'Naive requests.get TSV (1)', 'python-requests', 'raw-tsv'),
  variant('plain', 'requests-json', 'Naive requests.get JSON (1)', 'python-requests', 'raw-json', {
    quick: false,
  }),

  variant('parsed', 'requests-tsv', 'requests.get TSV (2)', 'python-requests', 'tsv-split', { quick: false }),
  variant('parsed', 'requests-cast', 'requests.get TSV with cast (2.5)', 'python-requests', 'tsv-cast', {
    quick: false,
  }),
  variant('parsed', 'requests-json', 'requests.get JSON (3)', 'python-requests', 'json-parse', {
    quick: false,
  }),
  variant('parsed', 'fetch-tsv', 'Node fetch TSV (2)', 'node-fetch', 'tsv-split', { quick: false }),
  variant('parsed', 'fetch-cast', 'Node fetch TSV with cast (2.5)', 'node-fetch', 'tsv-cast', {
    quick: false,
  }),
  variant('parsed', 'fetch-json', 'Node fetch JSON (3)', 'node-fetch', 'json-parse', { quick: false }),
  variant('parsed', 'chjs-tsv', '@clickhouse/client TSV stream (2)', 'clickhouse-js', 'tsv-split', {
    quick: false,
  }),
  variant('parsed', 'cw-native-rows', 'clickwire native rows() (4)', 'clickwire-native', 'rows'),
  variant('parsed', 'cw-http-rows', 'clickwire HTTP rows() (4)', 'clickwire-http', 'rows'),
  variant('parsed', 'chjs-jsoneachrow', '@clickhouse/client JSONEachRow (4)', 'clickhouse-js', 'rows', {
    format: 'JSONEachRow',
    quick: false,
  }),
  variant('parsed', 'chjs-jsoncompact', '@clickhouse/client JSONCompact (4)', 'clickhouse-js', 'rows', {
    format: 'JSONCompact',
  }),
  // The drop-in's json() next to @clickhouse/client's JSONEachRow json() above, and like it
  // only in --all runs (the quick run keeps @clickhouse/client's fastest format).
  variant(
    'parsed',
    'compat-http-json',
    '@clickwire/client/compat HTTP JSONEachRow json() (4)',
    'clickwire-http',
    'rows',
    { format: 'compat', quick: false },
  ),
  variant(
    'parsed',
    'compat-native-json',
    '@clickwire/client/compat native JSONEachRow json() (4)',
    'clickwire-native',
    'rows',
    { format: 'compat', quick: false },
  ),
  variant('parsed', 'driver-rows', 'clickhouse-driver Native (4)', 'clickhouse-driver', 'rows'),
  variant('parsed', 'connect-rows', 'clickhouse-connect (14)', 'clickhouse-connect', 'rows'),
  variant('parsed', 'cli-null', 'clickhouse-client --format Null (4)', 'clickhouse-client', 'rows', {
    format: 'Null',
  }),

  ...iterationVariants('iteration', 'iterate', undefined, ['7', '7', '17']),
  ...iterationVariants('strings', 'iterate-strings', 'columns-strings', ['10', '10', '15']),
  ...iterationVariants('ints', 'iterate-ints', 'columns-ints', ['13', '13', '16']),

  variant('arrow', 'cw-native-arrow', 'clickwire native arrow() (18)', 'clickwire-native', 'arrow'),
  variant('arrow', 'cw-http-arrow', 'clickwire HTTP arrow() (18)', 'clickwire-http', 'arrow', {
    quick: false,
  }),
  variant('arrow', 'cw-http-arrow-stream', 'clickwire HTTP queryArrow() (18)', 'clickwire-http', 'arrow', {
    format: 'ArrowStream',
  }),
  variant('arrow', 'driver-arrow', 'clickhouse-driver Native (18)', 'clickhouse-driver', 'arrow', {
    quick: false,
  }),
  variant('arrow', 'driver-numpy', 'clickhouse-driver use_numpy (19)', 'clickhouse-driver', 'arrow-numpy'),
  variant('arrow', 'connect-arrow', 'clickhouse-connect (20)', 'clickhouse-connect', 'arrow'),
  variant('arrow', 'cli-null', 'clickhouse-client --format Null (18)', 'clickhouse-client', 'arrow', {
    format: 'Null',
  }),
  ...arrowVariants('arrow-ints', 'arrow-ints', ['21', '21', '22']),
  ...arrowVariants('arrow-strings', 'arrow-strings', ['23', '23', '24']),

  variant('insert', 'cw-native-insert', 'clickwire native insert()', 'clickwire-native', 'insert'),
  variant('insert', 'cw-http-insert', 'clickwire HTTP insert()', 'clickwire-http', 'insert', {
    quick: false,
  }),
  variant('insert', 'chjs-insert', '@clickhouse/client insert JSONEachRow', 'clickhouse-js', 'insert', {
    quick: false,
  }),
  variant('insert', 'cli-native', 'clickhouse-client Native file', 'clickhouse-client', 'insert', {
    format: 'Native',
  }),

  variant('chbench', 'cw-native-lz4', 'clickwire native LZ4', 'clickwire-native', 'numbers', {
    compression: 'lz4',
  }),
  variant('chbench', 'cw-native-none', 'clickwire native uncompressed', 'clickwire-native', 'numbers', {
    compression: 'none',
  }),
  variant('chbench', 'cw-http', 'clickwire HTTP Native', 'clickwire-http', 'numbers'),
  variant('chbench', 'cli-lz4', 'clickhouse-client LZ4', 'clickhouse-client', 'numbers', {
    compression: 'lz4',
    format: 'Null',
  }),
  variant('chbench', 'cli-none', 'clickhouse-client uncompressed', 'clickhouse-client', 'numbers', {
    compression: 'none',
    format: 'Null',
  }),
  variant('chbench', 'curl-native', 'curl HTTP Native bytes', 'curl', 'numbers', { format: 'Native' }),
  variant('chbench', 'chgo', 'ch-go', 'ch-go', 'numbers', { compression: 'none' }),
  variant('chbench', 'driver', 'clickhouse-driver execute_iter', 'clickhouse-driver', 'numbers', {
    quick: false,
  }),
  variant('chbench', 'chjs-csv', '@clickhouse/client CSV stream', 'clickhouse-js', 'numbers', {
    format: 'CSV',
    quick: false,
  }),

  variant('chbench-strings', 'cw-native-lz4', 'clickwire native LZ4', 'clickwire-native', 'numbers-strings', {
    compression: 'lz4',
  }),
  variant('chbench-strings', 'cw-http', 'clickwire HTTP Native', 'clickwire-http', 'numbers-strings'),
  variant(
    'chbench-strings',
    'cw-native-lz4-blocks',
    'clickwire native LZ4, no JS strings',
    'clickwire-native',
    'numbers-strings-blocks',
    { compression: 'lz4' },
  ),
  variant(
    'chbench-strings',
    'cw-http-blocks',
    'clickwire HTTP Native, no JS strings',
    'clickwire-http',
    'numbers-strings-blocks',
  ),
  variant('chbench-strings', 'cli-lz4', 'clickhouse-client LZ4', 'clickhouse-client', 'numbers-strings', {
    compression: 'lz4',
    format: 'Null',
  }),
  variant('chbench-strings', 'curl-native', 'curl HTTP Native bytes', 'curl', 'numbers-strings', {
    format: 'Native',
  }),
  variant('chbench-strings', 'chgo', 'ch-go', 'ch-go', 'numbers-strings', { compression: 'none' }),
  variant(
    'chbench-strings',
    'driver',
    'clickhouse-driver execute_iter',
    'clickhouse-driver',
    'numbers-strings',
    {
      quick: false,
    },
  ),
])

/** A section's baseline rows for ratios: its first clickwire native and HTTP variants. */
export function baselinesOf(section: string, among: readonly Variant[] = variants) {
  const inSection = among.filter((each) => each.section === section)
  return {
    native: inSection.find((each) => each.client === 'clickwire-native'),
    http: inSection.find((each) => each.client === 'clickwire-http'),
  }
}
