import { parseType } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { identicalOverArrowStream, serverArrowSettings, serverHasArrowStream } from './arrow-server-query.js'

describe('the server-ArrowStream choice', () => {
  it('takes the types whose ArrowStream column is the one arrow() builds, and Nullable of them', () => {
    for (const type of ['Int8', 'UInt64', 'Float32', 'Bool', 'String', 'FixedString(7)', 'Date', 'Date32'])
      expect({ type, same: identicalOverArrowStream(parseType(type)) }).toEqual({ type, same: true })
    for (const type of ['Nullable(Int32)', 'Nullable(String)', 'Nullable(FixedString(2))'])
      expect({ type, same: identicalOverArrowStream(parseType(type)) }).toEqual({ type, same: true })
  })

  it('leaves the others to the Native path', () => {
    for (const type of [
      'DateTime',
      "DateTime64(3, 'UTC')",
      'LowCardinality(String)',
      'Nullable(DateTime)',
      "Enum8('a' = 1)",
      'UUID',
      'IPv4',
      'Int128',
      'Decimal(9, 2)',
      'Array(Int32)',
      'Tuple(Int32, String)',
      'Map(String, UInt8)',
    ])
      expect({ type, same: identicalOverArrowStream(parseType(type)) }).toEqual({ type, same: false })
  })

  it('asks only servers from 24.1, with uncompressed IPC buffers', () => {
    expect(serverHasArrowStream('18.16.1')).toBe(false)
    expect(serverHasArrowStream('23.8.2')).toBe(false)
    expect(serverHasArrowStream('24.1.1')).toBe(true)
    expect(serverHasArrowStream('26.7.2')).toBe(true)
    expect(serverArrowSettings.output_format_arrow_compression_method).toBe('none')
  })
})
