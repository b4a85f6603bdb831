/**
 * One benchmark process with Node's own fetch, the JS counterpart of the reference's
 * `requests` scripts (1)-(3): `node child-fetch.js <work> <cutoff date>`.
 * - raw-tsv / raw-json (1): the whole body as bytes;
 * - tsv-split (2): lines split on tabs; tsv-cast (2.5): and cast by column type;
 * - json-parse (3): JSONEachRow lines parsed, values kept in column order.
 */
import { childArguments, reportRows, requiredEnv, startClock } from './child-clock.js'
import { ontimeQuery, type Work } from './scenario-queries.js'

const [work, cutoff] = childArguments('child-fetch.js <work> <cutoff>', 2) as [Work, string]

startClock()

const base = requiredEnv('BENCH_HTTP_BASE')
const authorization = `Basic ${Buffer.from(`${process.env.BENCH_USER ?? 'default'}:${process.env.BENCH_PASSWORD ?? ''}`).toString('base64')}`

async function get(query: string): Promise<Response> {
  const response = await fetch(`${base}/?query=${encodeURIComponent(query)}`, {
    headers: { authorization },
  })
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
  return response
}

/** The body's lines as they arrive (the last, empty one after the final newline dropped). */
async function* lines(response: Response): AsyncGenerator<string> {
  let pending = ''
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  for (;;) {
    const { done, value: text } = await reader.read()
    if (done) break
    let start = 0
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      yield pending + text.slice(start, end)
      pending = ''
      start = end + 1
    }
    pending += text.slice(start)
  }
  if (pending) yield pending
}

type Cast = ((text: string) => unknown) | undefined

function castFor(type: string): Cast {
  if (type.startsWith('Int') || type.startsWith('UInt')) return Number
  if (type === 'Date') {
    return (text) => {
      const [year, month, day] = text.split('-').map(Number) as [number, number, number]
      return new Date(Date.UTC(year, month - 1, day))
    }
  }
  if (type === 'String' || type.startsWith('FixedString')) return undefined
  throw new Error(`no cast for ${type}`)
}

switch (work) {
  case 'raw-tsv':
  case 'raw-json': {
    const format = work === 'raw-tsv' ? 'TSV' : 'JSONEachRow'
    const bytes = new Uint8Array(
      await (await get(`${ontimeQuery(work, cutoff)} FORMAT ${format}`)).arrayBuffer(),
    )
    let rows = 0
    for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) rows++
    reportRows(rows)
    break
  }
  case 'tsv-split': {
    const rows: string[][] = []
    for await (const line of lines(await get(`${ontimeQuery(work, cutoff)} FORMAT TSV`)))
      rows.push(line.split('\t'))
    reportRows(rows.length)
    break
  }
  case 'tsv-cast': {
    const described = await (await get('DESCRIBE TABLE perftest.ontime FORMAT TSV')).text()
    const casts = described
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => castFor(line.split('\t')[1]!))
    const rows: unknown[][] = []
    for await (const line of lines(await get(`${ontimeQuery(work, cutoff)} FORMAT TSV`))) {
      const values: unknown[] = line.split('\t')
      for (let index = 0; index < values.length; index++) {
        const cast = casts[index]
        if (cast) values[index] = cast(values[index] as string)
      }
      rows.push(values)
    }
    reportRows(rows.length)
    break
  }
  case 'json-parse': {
    const rows: unknown[][] = []
    for await (const line of lines(await get(`${ontimeQuery(work, cutoff)} FORMAT JSONEachRow`))) {
      rows.push(Object.values(JSON.parse(line) as Record<string, unknown>))
    }
    reportRows(rows.length)
    break
  }
  default:
    process.stderr.write(`fetch has no ${work} scenario\n`)
    process.exitCode = 2
}
