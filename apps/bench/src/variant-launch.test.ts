import { describe, expect, it } from 'vitest'
import { variants } from './scenario-catalog.js'
import { type BenchPaths, type BenchServer, type BenchTools, launchFor } from './variant-launch.js'

const server: BenchServer = {
  host: '127.0.0.1',
  nativePort: 9000,
  httpPort: 8123,
  user: 'default',
  password: 'secret',
  nativeUrl: 'clickhouse://default:secret@127.0.0.1:9000',
  httpUrl: 'http://default:secret@127.0.0.1:8123',
  httpBase: 'http://127.0.0.1:8123',
}
const paths: BenchPaths = {
  root: '/b',
  dist: '/b/dist',
  python: '/b/python',
  peers: '/b/.peers',
  data: '/b/.data',
}
const tools: BenchTools = {
  node: '/usr/bin/node',
  clickhouseClient: { file: '/usr/bin/clickhouse-client', args: [] },
  curl: '/usr/bin/curl',
  chgo: '/b/.peers/bin/chgo-bench',
}
const pointOf = (work: string) => (work.startsWith('numbers') ? '1000' : '2017-01-04')

describe('launchFor', () => {
  it('starts clickwire variants on the runtime --runtime picked, and the peers on Node', () => {
    const onDeno: BenchTools = {
      ...tools,
      clickwire: { file: '/rt/deno', prefix: ['run', '--allow-all', '--node-modules-dir=manual'] },
    }
    const launched = (client: string) => {
      const variant = variants.find((each) => each.client === client && each.work !== 'insert')!
      const { file, args } = launchFor(variant, pointOf(variant.work), { server, paths, tools: onDeno })
      return [file, ...args.slice(0, 4)]
    }
    expect(launched('clickwire-native')).toEqual([
      '/rt/deno',
      'run',
      '--allow-all',
      '--node-modules-dir=manual',
      '/b/dist/child-clickwire.js',
    ])
    expect(launched('clickwire-http')).toEqual([
      '/rt/deno',
      'run',
      '--allow-all',
      '--node-modules-dir=manual',
      '/b/dist/child-clickwire.js',
    ])
    expect(launched('clickhouse-js')[0]).toBe('/usr/bin/node')
    expect(launched('clickhouse-js')[1]).toBe('/b/dist/child-clickhouse-js.js')
  })

  // On 26.7 a FORMAT clause inside the query is run by the server: with Null it discards
  // the rows and nothing travels. The client's own --format keeps them on the wire.
  it('gives clickhouse-client its output format as an option, never inside the query', () => {
    const reads = variants.filter((each) => each.client === 'clickhouse-client' && each.work !== 'insert')
    expect(reads.length).toBeGreaterThan(5)
    for (const variant of reads) {
      const { args } = launchFor(variant, pointOf(variant.work), { server, paths, tools })
      const query = args[args.indexOf('--query') + 1]!
      expect({ id: variant.id, query }).not.toMatchObject({ query: expect.stringMatching(/\bFORMAT\b/i) })
      expect(args[args.indexOf('--format') + 1]).toBe(variant.format ?? 'Null')
    }
  })

  it('runs queryArrow() for the ArrowStream variants of clickwire HTTP, arrow() for the others', () => {
    const argsOf = (id: string) => {
      const variant = variants.find((each) => each.id === id)!
      return launchFor(variant, '2017-01-04', { server, paths, tools }).args.slice(-4)
    }
    expect(argsOf('arrow-ints/cw-http-arrow-stream')).toEqual([
      'http',
      'arrow-ints',
      '2017-01-04',
      'ArrowStream',
    ])
    expect(argsOf('arrow-ints/cw-http-arrow').slice(-3)).toEqual(['http', 'arrow-ints', '2017-01-04'])
  })

  it("runs the drop-in's json() variants through child-clickwire-compat on their transport", () => {
    const launchOf = (id: string) => {
      const variant = variants.find((each) => each.id === id)!
      return launchFor(variant, '2017-01-04', { server, paths, tools })
    }
    expect(launchOf('parsed/compat-http-json').args).toEqual([
      '/b/dist/child-clickwire-compat.js',
      'http',
      'rows',
      '2017-01-04',
    ])
    expect(launchOf('parsed/compat-native-json').args).toEqual([
      '/b/dist/child-clickwire-compat.js',
      'native',
      'rows',
      '2017-01-04',
    ])
    expect(launchOf('parsed/compat-http-json').env.BENCH_HTTP_BASE).toBe('http://127.0.0.1:8123')
  })

  it('forces the @54488 copies to their revision through BENCH_PROTOCOL_REVISION, and no other run', () => {
    const env = (id: string) =>
      launchFor(
        variants.find((each) => each.id === id)!,
        pointOf(id.startsWith('chbench') ? 'numbers' : ''),
        {
          server,
          paths,
          tools,
        },
      ).env
    expect(env('strings/cw-native-columns@54488').BENCH_PROTOCOL_REVISION).toBe('54488')
    expect(env('chbench-strings/cw-http@54488').BENCH_PROTOCOL_REVISION).toBe('54488')
    expect(env('strings/cw-native-columns').BENCH_PROTOCOL_REVISION).toBeUndefined()
    const copy = launchFor(
      variants.find((each) => each.id === 'arrow-strings/cw-native-arrow@54488')!,
      '2017-01-04',
      {
        server,
        paths,
        tools,
      },
    )
    expect(copy.args.slice(-4)).toEqual(['native', 'arrow-strings', '2017-01-04', 'default'])
  })

  it('runs ch-bench over toString(number) with the same peers', () => {
    const spec = (id: string) =>
      launchFor(variants.find((each) => each.id === id)!, '1000', { server, paths, tools })
    expect(spec('chbench-strings/chgo').args).toEqual(['numbers-strings', '1000'])
    expect(spec('chbench-strings/cw-native-lz4-blocks').args.slice(-4)).toEqual([
      'native',
      'numbers-strings-blocks',
      '1000',
      'lz4',
    ])
    const cli = spec('chbench-strings/cli-lz4').args
    expect(cli[cli.indexOf('--query') + 1]).toBe('SELECT toString(number) FROM system.numbers_mt LIMIT 1000')
    expect(decodeURIComponent(spec('chbench-strings/curl-native').args.at(-1)!)).toMatch(
      /SELECT toString\(number\) FROM system\.numbers_mt LIMIT 1000 FORMAT Native$/,
    )
  })

  it('asks for the uncompressed and LZ4 protocols of ch-bench', () => {
    const args = (id: string) =>
      launchFor(variants.find((each) => each.id === id)!, '1000', { server, paths, tools }).args
    expect(args('chbench/cli-none')).toEqual(expect.arrayContaining(['--compression', '0']))
    expect(args('chbench/cli-lz4')).toEqual(expect.arrayContaining(['--compression', '1']))
    // 26.9 answers compressed queries in ZSTD(3) unless the method is named.
    expect(args('chbench/cli-lz4')).toEqual(expect.arrayContaining(['--network_compression_method', 'lz4']))
    expect(args('chbench/cli-none')).not.toContain('--network_compression_method')
  })

  it('runs ch-go on every ontime projection it has a variant for', () => {
    const chgo = variants.filter((each) => each.client === 'ch-go')
    expect(chgo.map((each) => each.work).sort()).toEqual([
      'iterate',
      'iterate-ints',
      'iterate-strings',
      'numbers',
      'numbers-strings',
    ])
    for (const variant of chgo) {
      const spec = launchFor(variant, pointOf(variant.work), { server, paths, tools })
      expect(spec.file).toBe(tools.chgo)
      expect(spec.measure).toBe('self')
    }
  })
})
