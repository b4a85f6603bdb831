import { describe, expect, it } from 'vitest'
import { docComment } from './doc-comment.js'

describe('docComment', () => {
  it('is empty without text', () => {
    expect(docComment([], '  ')).toBe('')
    expect(docComment(['', '  \n '], '  ')).toBe('')
  })

  it('keeps one short line on one line', () => {
    expect(docComment(['`UInt16`'], '  ')).toBe('  /** `UInt16` */\n')
  })

  it('writes paragraphs and lines as a block', () => {
    expect(docComment(['Flight date.\r\nLocal time.', '`Date`'], '  ')).toBe(
      '  /**\n   * Flight date.\n   * Local time.\n   *\n   * `Date`\n   */\n',
    )
  })

  it('cannot be closed early by the text', () => {
    const text = docComment(['a */ b /* c */'], '')
    expect(text).toBe('/** a *\\/ b /* c *\\/ */\n')
    expect(text.indexOf('*/')).toBe(text.length - 3)
  })

  it('breaks long lines into a block', () => {
    const long = 'x'.repeat(120)
    expect(docComment([long], '')).toBe(`/**\n * ${long}\n */\n`)
  })
})
