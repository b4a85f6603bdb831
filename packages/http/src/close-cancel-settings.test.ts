import { describe, expect, it } from 'vitest'
import { closeCancelSettings, isReadOnlyStatement } from './close-cancel-settings.js'
import type { ServerFeatures } from './server-features.js'

const server = (readonly: number, cancelsOnClientClose = true): ServerFeatures => ({
  name: 'ClickHouse',
  version: '26.9.2',
  revision: 54492,
  timezone: 'UTC',
  displayName: 'test',
  queryParameters: true,
  readonly,
  cancelsOnClientClose,
})

describe('isReadOnlyStatement', () => {
  it('takes a SELECT or WITH first, after comments and parentheses', () => {
    expect(isReadOnlyStatement('SELECT 1')).toBe(true)
    expect(isReadOnlyStatement('  select\n1')).toBe(true)
    expect(isReadOnlyStatement('WITH 1 AS x SELECT x')).toBe(true)
    expect(isReadOnlyStatement('((SELECT 1) UNION ALL (SELECT 2))')).toBe(true)
    expect(isReadOnlyStatement('-- note\n/* block */ SELECT 1')).toBe(true)
  })

  it('refuses anything else', () => {
    expect(isReadOnlyStatement('INSERT INTO t SELECT 1')).toBe(false)
    expect(isReadOnlyStatement('SELECTX')).toBe(false)
    expect(isReadOnlyStatement('CREATE TABLE t AS SELECT 1')).toBe(false)
    expect(isReadOnlyStatement('ALTER TABLE t DELETE WHERE 1')).toBe(false)
    expect(isReadOnlyStatement('OPTIMIZE TABLE t')).toBe(false)
    expect(isReadOnlyStatement('-- SELECT\nDROP TABLE t')).toBe(false)
    expect(isReadOnlyStatement('/* SELECT */ TRUNCATE t')).toBe(false)
    expect(isReadOnlyStatement('SYSTEM FLUSH LOGS')).toBe(false)
    expect(isReadOnlyStatement('')).toBe(false)
  })
})

describe('closeCancelSettings', () => {
  it('gives a SELECT at readonly 0 readonly = 2 and the setting, at readonly 2 the setting only', () => {
    expect(closeCancelSettings('SELECT 1', server(0), false)).toEqual({
      readonly: 2,
      cancel_http_readonly_queries_on_client_close: 1,
    })
    expect(closeCancelSettings('SELECT 1', server(2), false)).toEqual({
      cancel_http_readonly_queries_on_client_close: 1,
    })
  })

  it('adds nothing where it could change or refuse the statement', () => {
    // readonly = 1 refuses every setting; an unknown level is not guessed.
    expect(closeCancelSettings('SELECT 1', server(1), false)).toBeUndefined()
    expect(closeCancelSettings('SELECT 1', server(-1), false)).toBeUndefined()
    // 18.16: no such setting.
    expect(closeCancelSettings('SELECT 1', server(0, false), false)).toBeUndefined()
    // A session's SET readonly is not what the probe saw.
    expect(closeCancelSettings('SELECT 1', server(0), true)).toBeUndefined()
    expect(closeCancelSettings('INSERT INTO t SELECT 1', server(0), false)).toBeUndefined()
    expect(closeCancelSettings('SELECT 1 SETTINGS readonly = 0', server(0), false)).toBeUndefined()
    expect(closeCancelSettings('SELECT 1', server(0), false, { readonly: 1 })).toBeUndefined()
    expect(
      closeCancelSettings('SELECT 1', server(0), false, undefined, {
        cancel_http_readonly_queries_on_client_close: 0,
      }),
    ).toBeUndefined()
  })
})
