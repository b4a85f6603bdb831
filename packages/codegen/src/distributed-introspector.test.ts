import { describe, expect, it } from 'vitest'
import { mergeLocalColumns } from './distributed-introspector.js'
import type { ColumnMetadata } from './schema-metadata.js'

const column = (name: string, type: string, more: Partial<ColumnMetadata> = {}): ColumnMetadata => ({
  name,
  type,
  defaultKind: '',
  defaultExpression: '',
  comment: '',
  ...more,
})

describe('mergeLocalColumns', () => {
  const local = [
    column('id', 'UInt64', { comment: 'the id' }),
    column('name', 'LowCardinality(String)', { comment: 'who' }),
    column('day', 'Date', { defaultKind: 'MATERIALIZED', defaultExpression: 'toDate(id)' }),
    column('hidden', 'UInt8'),
  ]

  it('takes the local comments and notes the local declaration where it differs', () => {
    const own = [
      column('id', 'UInt64'),
      column('name', 'String', { comment: 'its own' }),
      column('day', 'Date'),
      column('extra', 'UInt8'),
    ]
    expect(mergeLocalColumns(own, local)).toEqual({
      columns: [
        column('id', 'UInt64', { comment: 'the id' }),
        column('name', 'String', {
          comment: 'its own',
          local: { type: 'LowCardinality(String)', defaultKind: '', defaultExpression: '' },
        }),
        column('day', 'Date', {
          local: { type: 'Date', defaultKind: 'MATERIALIZED', defaultExpression: 'toDate(id)' },
        }),
        column('extra', 'UInt8', { local: null }),
      ],
      localOnlyColumns: ['hidden'],
    })
  })

  it('stands the local columns in when the Distributed table lists none', () => {
    expect(mergeLocalColumns([], local)).toEqual({ columns: local, localOnlyColumns: [] })
  })
})
