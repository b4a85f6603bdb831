import { UsageError } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { checkQueryFormat, statementFormat, subqueryText } from './format-clause-loader.js'
import { resolveOptions } from './http-options.js'
import { bindParameters } from './http-parameters.js'

describe('the FORMAT clause, with the lexer loaded on demand', () => {
  it('refuses a format other than Native in any letter case, and lets the rest through', async () => {
    await expect(checkQueryFormat('select 1 format JSONEachRow')).rejects.toThrow(
      /cannot return FORMAT JSONEachRow output/,
    )
    await expect(checkQueryFormat('SELECT 1 FORMAT JSON')).rejects.toBeInstanceOf(UsageError)
    await expect(checkQueryFormat('SELECT 1 FORMAT Native')).resolves.toBeUndefined()
    await expect(checkQueryFormat("SELECT 'FORMAT JSON' AS format")).resolves.toBeUndefined()
    await expect(checkQueryFormat('SELECT 1')).resolves.toBeUndefined()
  })

  it('names the format of the clause, or none', async () => {
    expect(await statementFormat('SELECT 1 FoRmAt CSV;')).toBe('CSV')
    expect(await statementFormat('SELECT format(1)')).toBeUndefined()
    expect(await statementFormat('SELECT 1')).toBeUndefined()
  })

  it('makes the subquery of DESCRIBE without the clause and the semicolons', async () => {
    expect(await subqueryText('SELECT 1 FORMAT JSON;')).toBe('SELECT 1')
    expect(await subqueryText('SELECT 1;;')).toBe('SELECT 1')
  })
})

describe('parameters, with their code loaded on demand', () => {
  const options = resolveOptions({ url: 'http://localhost:8123' })
  const server = { queryParameters: true } as Parameters<typeof bindParameters>[3]

  it('refuses a placeholder without a value, and sends a statement without one as it is', async () => {
    await expect(bindParameters(options, 'SELECT {n:UInt8}', undefined, server, undefined)).rejects.toThrow(
      UsageError,
    )
    expect(await bindParameters(options, 'SELECT 1', undefined, server, undefined)).toEqual({
      text: 'SELECT 1',
      fields: [],
    })
    expect(await bindParameters(options, 'SELECT {n:UInt8}', { n: 7 }, server, undefined)).toEqual({
      text: 'SELECT {n:UInt8}',
      fields: [['param_n', '7']],
    })
  })
})
