import { describe, expect, it } from 'vitest'
import { ProtocolError } from '../errors/protocol-error.js'
import { parseColumnsDescription } from './columns-description.js'

describe('parseColumnsDescription', () => {
  it('reads names, types, defaults, comments, codecs and TTLs', () => {
    const text =
      'columns format version: 1\n' +
      '5 columns:\n' +
      '`a` UInt8\n' +
      "`s` String\tDEFAULT\t'x\\ty'\n" +
      "`d` DateTime\tMATERIALIZED\tnow()\tCOMMENT 'when'\tCODEC(Delta(4), ZSTD(1))\tTTL d + toIntervalDay(1)\n" +
      "`we\\`ird name` Array(LowCardinality(String))\tALIAS\tarrayMap(x -> concat(x, '\\\\n'), [s])\n" +
      "`e` Enum8(\\'a\\' = 1)\tCOMMENT 'only a comment'\n"
    expect(parseColumnsDescription(text)).toEqual([
      { name: 'a', type: 'UInt8', defaultKind: '', defaultExpression: '', comment: '', codec: '', ttl: '' },
      {
        name: 's',
        type: 'String',
        defaultKind: 'DEFAULT',
        defaultExpression: "'x\ty'",
        comment: '',
        codec: '',
        ttl: '',
      },
      {
        name: 'd',
        type: 'DateTime',
        defaultKind: 'MATERIALIZED',
        defaultExpression: 'now()',
        comment: 'when',
        codec: 'CODEC(Delta(4), ZSTD(1))',
        ttl: 'd + toIntervalDay(1)',
      },
      {
        name: 'we`ird name',
        type: 'Array(LowCardinality(String))',
        defaultKind: 'ALIAS',
        defaultExpression: "arrayMap(x -> concat(x, '\\n'), [s])",
        comment: '',
        codec: '',
        ttl: '',
      },
      {
        name: 'e',
        type: "Enum8('a' = 1)",
        defaultKind: '',
        defaultExpression: '',
        comment: 'only a comment',
        codec: '',
        ttl: '',
      },
    ])
  })

  it('reads an empty description', () => {
    expect(parseColumnsDescription('columns format version: 1\n0 columns:\n')).toEqual([])
  })

  it('rejects malformed text', () => {
    for (const text of [
      'nonsense',
      'columns format version: 1\n2 columns:\n`a` UInt8\n',
      'columns format version: 1\n1 columns:\na UInt8\n',
      'columns format version: 1\n1 columns:\n`a UInt8\n',
      'columns format version: 1\n1 columns:\n`a`UInt8\n',
      'columns format version: 1\n1 columns:\n`a` UInt8\tDEFAULT\n',
    ]) {
      expect(() => parseColumnsDescription(text), JSON.stringify(text)).toThrow(ProtocolError)
    }
  })
})
