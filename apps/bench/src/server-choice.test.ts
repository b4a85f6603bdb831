import { requestedLine } from '@clickwire/testing'
import { describe, expect, it } from 'vitest'
import { chooseServerLine, describeServerLine, isModernLine, parseServerChoice } from './server-choice.js'

describe('parseServerChoice', () => {
  it('names 18.16, 26.7 and 26.9 several ways', () => {
    for (const value of ['18.16', '18', 'legacy', ' Legacy ']) expect(parseServerChoice(value)).toBe('18.16')
    for (const value of ['modern', '26', '26.7', 'MODERN']) expect(parseServerChoice(value)).toBe('26.7')
    for (const value of ['latest', '26.9', ' LATEST']) expect(parseServerChoice(value)).toBe('26.9')
  })

  it('refuses anything else', () => {
    for (const value of ['', '23.8', 'newest', '18.1', '26.8'])
      expect(parseServerChoice(value)).toBeUndefined()
  })

  // `--server X` and `CLICKWIRE_SERVER=X pnpm test` must mean the same server.
  it("agrees with the test harness's CLICKWIRE_SERVER", () => {
    for (const value of ['18.16', '18', 'legacy', 'modern', '26', '26.7', 'latest', '26.9'])
      expect(parseServerChoice(value)).toBe(requestedLine({ CLICKWIRE_SERVER: value }))
  })
})

describe('chooseServerLine', () => {
  it('is 26.9 unless told otherwise', () => {
    expect(chooseServerLine(undefined, {})).toBe('26.9')
    expect(chooseServerLine(undefined, { CLICKWIRE_SERVER: ' ' })).toBe('26.9')
  })

  it('honours CLICKWIRE_SERVER', () => {
    expect(chooseServerLine(undefined, { CLICKWIRE_SERVER: '18.16' })).toBe('18.16')
    expect(chooseServerLine(undefined, { CLICKWIRE_SERVER: 'modern' })).toBe('26.7')
    expect(chooseServerLine(undefined, { CLICKWIRE_SERVER: 'latest' })).toBe('26.9')
  })

  it('puts --server before CLICKWIRE_SERVER', () => {
    expect(chooseServerLine('18.16', { CLICKWIRE_SERVER: 'latest' })).toBe('18.16')
    expect(chooseServerLine('26.7', { CLICKWIRE_SERVER: '18.16' })).toBe('26.7')
  })

  it('says what a bad CLICKWIRE_SERVER should be', () => {
    expect(() => chooseServerLine(undefined, { CLICKWIRE_SERVER: '23.8' })).toThrow(
      /latest \(26\.9\), modern \(26\.7\) or 18\.16/,
    )
  })
})

describe('lines', () => {
  it('names each line for the progress messages', () => {
    expect(describeServerLine('26.9')).toMatch(/26\.9.*latest/)
    expect(describeServerLine('26.7')).toMatch(/26\.7.*modern/)
    expect(describeServerLine('18.16')).toMatch(/18\.16/)
  })

  it('counts both 26.x lines as modern', () => {
    expect([isModernLine('26.9'), isModernLine('26.7'), isModernLine('18.16')]).toEqual([true, true, false])
  })
})
