import { describe, expect, it } from 'vitest'
import { tableFilter } from './table-filter.js'

describe('tableFilter', () => {
  it('keeps every table but the inner tables of materialized views by default', () => {
    const keep = tableFilter()
    expect(keep('default', 'events')).toBe(true)
    expect(keep('default', 'weird name.x')).toBe(true)
    expect(keep('default', '.inner.mv')).toBe(false)
    expect(keep('default', '.inner_id.0b1c2d3e-0000-4000-8000-000000000000')).toBe(false)
  })

  it('matches globs against the table name and against database.table', () => {
    const keep = tableFilter(['events_*', 'analytics.*'])
    expect(keep('default', 'events_2024')).toBe(true)
    expect(keep('default', 'sessions')).toBe(false)
    expect(keep('analytics', 'sessions')).toBe(true)
    expect(keep('other', 'sessions')).toBe(false)
  })

  it('leaves out excluded tables even when included', () => {
    const keep = tableFilter(['events_*'], ['*_tmp', 'archive.*'])
    expect(keep('default', 'events_tmp')).toBe(false)
    expect(keep('archive', 'events_2024')).toBe(false)
    expect(keep('default', 'events_2024')).toBe(true)
    expect(tableFilter([], ['events'])('default', 'events')).toBe(false)
    expect(tableFilter([], ['events'])('default', 'events2')).toBe(true)
  })

  it('keeps inner tables when an include names them', () => {
    expect(tableFilter(['.inner.*'])('default', '.inner.mv')).toBe(true)
    expect(tableFilter(['*'])('default', '.inner.mv')).toBe(true)
  })

  it('supports braces and character classes', () => {
    const keep = tableFilter(['{a,b}_[0-9]'])
    expect(keep('default', 'a_1')).toBe(true)
    expect(keep('default', 'b_9')).toBe(true)
    expect(keep('default', 'c_1')).toBe(false)
    expect(keep('default', 'a_x')).toBe(false)
  })
})
