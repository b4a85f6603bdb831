import { describe, expect, it } from 'vitest'
import { diffLines, unifiedDiff } from './text-diff.js'

/** Applies edits to the old lines; must give the new lines. */
function apply(edits: ReturnType<typeof diffLines>): { old: string[]; new: string[] } {
  return {
    old: edits.filter((edit) => edit.kind !== '+').map((edit) => edit.line),
    new: edits.filter((edit) => edit.kind !== '-').map((edit) => edit.line),
  }
}

describe('diffLines', () => {
  it('finds the shortest edit script', () => {
    const oldLines = 'a b c a b b a'.split(' ')
    const newLines = 'c b a b a c'.split(' ')
    const edits = diffLines(oldLines, newLines)
    expect(apply(edits)).toEqual({ old: oldLines, new: newLines })
    expect(edits.filter((edit) => edit.kind !== ' ')).toHaveLength(5)
  })

  it('handles empty sides and equal texts', () => {
    expect(diffLines([], [])).toEqual([])
    expect(diffLines([], ['x'])).toEqual([{ kind: '+', line: 'x', number: 1 }])
    expect(diffLines(['x'], [])).toEqual([{ kind: '-', line: 'x', number: 1 }])
    expect(diffLines(['x', 'y'], ['x', 'y']).every((edit) => edit.kind === ' ')).toBe(true)
  })

  it('reconstructs both sides for random inputs', () => {
    let seed = 7
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
    for (let round = 0; round < 200; round++) {
      const make = () =>
        Array.from({ length: Math.floor(random() * 12) }, () => 'abc'[Math.floor(random() * 3)]!)
      const oldLines = make()
      const newLines = make()
      expect(apply(diffLines(oldLines, newLines))).toEqual({ old: oldLines, new: newLines })
    }
  })

  it('stays fast and correct on large, very different texts', () => {
    const oldLines = Array.from({ length: 5000 }, (_, i) => `old ${i}`)
    const newLines = Array.from({ length: 5000 }, (_, i) => (i % 2 ? `old ${i}` : `new ${i}`))
    expect(apply(diffLines(oldLines, newLines))).toEqual({ old: oldLines, new: newLines })
  })
})

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toBe('')
  })

  it('shows an added line with context and line numbers', () => {
    const oldText = ['1', '2', '3', '4', '5', '6', '7', '8'].join('\n')
    const newText = ['1', '2', '3', '4', 'new', '5', '6', '7', '8'].join('\n')
    expect(unifiedDiff(oldText, newText, 2)).toBe(
      ['@@ -3,4 +3,5 @@', ' 3', ' 4', '+new', ' 5', ' 6'].join('\n'),
    )
  })

  it('keeps separate hunks for distant changes and merges near ones', () => {
    const oldLines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`)
    const newLines = [...oldLines]
    newLines[1] = 'changed 2'
    newLines[3] = 'changed 4'
    newLines[25] = 'changed 26'
    const diff = unifiedDiff(oldLines.join('\n'), newLines.join('\n'), 1)
    expect(diff.split('\n').filter((line) => line.startsWith('@@'))).toEqual([
      '@@ -1,5 +1,5 @@',
      '@@ -25,3 +25,3 @@',
    ])
    expect(diff).toContain('-line 26\n+changed 26')
  })

  it('cuts long output', () => {
    const oldText = Array.from({ length: 50 }, (_, i) => `a${i}`).join('\n')
    const newText = Array.from({ length: 50 }, (_, i) => `b${i}`).join('\n')
    const diff = unifiedDiff(oldText, newText, 3, 10)
    expect(diff.split('\n')).toHaveLength(11)
    expect(diff.endsWith('... 91 more diff lines')).toBe(true)
  })
})
