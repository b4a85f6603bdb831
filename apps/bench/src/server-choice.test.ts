import { describe, expect, it } from 'vitest'
import { chooseGeneration, describeGeneration, parseServerChoice } from './server-choice.js'

describe('parseServerChoice', () => {
  it('names 18.16 and the modern server several ways', () => {
    for (const value of ['18.16', '18', 'legacy', ' Legacy ']) expect(parseServerChoice(value)).toBe('legacy')
    for (const value of ['modern', '26', '26.7', 'MODERN']) expect(parseServerChoice(value)).toBe('modern')
  })

  it('refuses anything else', () => {
    for (const value of ['', '23.8', 'latest', '18.1']) expect(parseServerChoice(value)).toBeUndefined()
  })
})

describe('chooseGeneration', () => {
  it('is the modern server unless told otherwise', () => {
    expect(chooseGeneration(undefined, {})).toBe('modern')
    expect(chooseGeneration(undefined, { CLICKWIRE_SERVER: ' ' })).toBe('modern')
  })

  it('honours CLICKWIRE_SERVER', () => {
    expect(chooseGeneration(undefined, { CLICKWIRE_SERVER: '18.16' })).toBe('legacy')
    expect(chooseGeneration(undefined, { CLICKWIRE_SERVER: 'modern' })).toBe('modern')
  })

  it('puts --server before CLICKWIRE_SERVER', () => {
    expect(chooseGeneration('legacy', { CLICKWIRE_SERVER: 'modern' })).toBe('legacy')
    expect(chooseGeneration('modern', { CLICKWIRE_SERVER: '18.16' })).toBe('modern')
  })

  it('says what a bad CLICKWIRE_SERVER should be', () => {
    expect(() => chooseGeneration(undefined, { CLICKWIRE_SERVER: '23.8' })).toThrow(/18\.16 or modern/)
  })
})

describe('describeGeneration', () => {
  it('names the generation for the report header', () => {
    expect(describeGeneration('modern')).toMatch(/modern/)
    expect(describeGeneration('legacy')).toMatch(/18\.16/)
  })
})
