import {
  defaultValueMapping,
  loadCodecs,
  parseType,
  tsTypeOf,
  typeFamilies,
  typeFamily,
  type ValueMapping,
} from '@clickwire/protocol'

// tsTypeOf reads each family's codec; those of the rarer families load on demand.
await loadCodecs()

/** Example types for families that take arguments; a family not listed is shown bare. */
const examples: Readonly<Record<string, readonly string[]>> = {
  FixedString: ['FixedString(16)'],
  DateTime: ['DateTime', "DateTime('Asia/Tokyo')"],
  DateTime64: ['DateTime64(3)'],
  Time64: ['Time64(3)'],
  Decimal: ['Decimal(9, 2)'],
  Decimal32: ['Decimal32(2)'],
  Decimal64: ['Decimal64(4)'],
  Decimal128: ['Decimal128(10)'],
  Decimal256: ['Decimal256(20)'],
  Enum8: ["Enum8('a' = 1, 'b' = 2)"],
  Enum16: ["Enum16('x' = 1000)"],
  Enum: ["Enum('a' = 1, 'b' = 2)"],
  AggregateFunction: ['AggregateFunction(uniq, UInt64)', 'AggregateFunction(quantiles(0.5), Float64)'],
  SimpleAggregateFunction: ['SimpleAggregateFunction(sum, UInt64)'],
  Nullable: ['Nullable(String)'],
  LowCardinality: ['LowCardinality(String)', 'LowCardinality(Nullable(String))'],
  Array: ['Array(Int32)', 'Array(Nullable(Int32))'],
  Map: ['Map(String, UInt64)'],
  Tuple: ['Tuple(UInt8, String)', 'Tuple(a UInt8, b String)'],
  Nested: ['Nested(x UInt8, y String)'],
  Variant: ['Variant(String, UInt64)'],
  QBit: ['QBit(Float32, 8)'],
}

/** The option changes shown beside the defaults. */
const variants: readonly { readonly label: string; readonly mapping: Partial<ValueMapping> }[] = [
  { label: 'int64: number', mapping: { int64: 'number' } },
  { label: 'int64: string', mapping: { int64: 'string' } },
  { label: 'dates: date', mapping: { dates: 'date' } },
  { label: 'decimal: number', mapping: { decimal: 'number' } },
]

/** Code span for a GFM table cell: pipes escaped, backticks doubled when the text has one. */
function cell(text: string): string {
  const escaped = text.replace(/\|/g, '\\|')
  return escaped.includes('`') ? `\`\` ${escaped} \`\`` : `\`${escaped}\``
}

/**
 * The mapping table as Markdown, computed from protocol's codec registry (what the decoders
 * and codegen use): every family clickwire reads, an example type, the TypeScript type its
 * codec declares with the default options, what the other options change, and the runtime
 * value. The README's table is this text; a test keeps them equal.
 */
export function mappingTableMarkdown(): string {
  const rows = [
    '| ClickHouse type | TypeScript (defaults) | with other options | runtime value |',
    '| --- | --- | --- | --- |',
  ]
  for (const family of typeFamilies) {
    for (const example of examples[family] ?? [family]) {
      const type = parseType(example)
      const base = tsTypeOf(type, defaultValueMapping)
      const changed = variants
        .map(({ label, mapping }) => ({ label, ts: tsTypeOf(type, { ...defaultValueMapping, ...mapping }) }))
        .filter(({ ts }) => ts !== base)
        .map(({ label, ts }) => `${label}: ${cell(ts)}`)
      const runtime = typeFamily(family)?.runtime ?? ''
      rows.push(
        `| ${cell(example)} | ${cell(base)} | ${changed.join('<br>') || '—'} | ${runtime.replace(/\|/g, '\\|')} |`,
      )
    }
  }
  return `${rows.join('\n')}\n`
}
