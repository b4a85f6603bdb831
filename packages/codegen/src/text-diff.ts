/**
 * A line diff for `--verify`: which lines of the file on disk differ from what codegen
 * would write now, as unified-diff hunks. Myers' O(ND) algorithm, so a large generated
 * file with a small change diffs fast.
 */

/** One edit: a line kept, removed from the old text, or added in the new one. */
export interface LineEdit {
  readonly kind: ' ' | '-' | '+'
  readonly line: string
  /** 1-based line number in the old text (removed and kept lines) or the new one (added lines). */
  readonly number: number
}

/**
 * Past this many differences the middle is shown as removed then added: Myers keeps one
 * array per step, and files that differ that much are best regenerated, not read.
 */
const maxEditDistance = 2000

/** The edits that turn `old` into `new` lines: the shortest script (Myers) up to {@link maxEditDistance}. */
export function diffLines(oldLines: readonly string[], newLines: readonly string[]): LineEdit[] {
  // Equal heads and tails cost nothing to find and make the Myers part small.
  let head = 0
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++
  let tail = 0
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  )
    tail++
  const middle = myers(
    oldLines.slice(head, oldLines.length - tail),
    newLines.slice(head, newLines.length - tail),
  )
  const edits: LineEdit[] = []
  for (let i = 0; i < head; i++) edits.push({ kind: ' ', line: oldLines[i]!, number: i + 1 })
  for (const edit of middle) edits.push({ ...edit, number: edit.number + head })
  for (let i = oldLines.length - tail; i < oldLines.length; i++)
    edits.push({ kind: ' ', line: oldLines[i]!, number: i + 1 })
  return edits
}

function myers(oldLines: readonly string[], newLines: readonly string[]): LineEdit[] {
  const n = oldLines.length
  const m = newLines.length
  const max = n + m
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d]: the furthest x per diagonal before step d, kept only for the diagonals step d
  // reads (-d - 1 .. d + 1), so memory grows with the square of the distance, not n * d.
  const trace: Int32Array[] = []
  let found = false
  for (let d = 0; d <= max && !found; d++) {
    if (d > maxEditDistance) return replaceAll(oldLines, newLines)
    trace.push(v.slice(offset - d - 1, offset + d + 2))
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && oldLines[x] === newLines[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) {
        found = true
        break
      }
    }
  }
  // Walk the trace back from the end to recover the path.
  const edits: LineEdit[] = []
  let x = n
  let y = m
  for (let d = trace.length - 1; d >= 0; d--) {
    const before = trace[d]!
    const at = (k: number) => before[k + d + 1]!
    const k = x - y
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const previousX = d === 0 ? 0 : at(previousK)
    const previousY = previousX - previousK
    while (x > previousX && y > previousY) {
      edits.push({ kind: ' ', line: oldLines[x - 1]!, number: x })
      x--
      y--
    }
    if (d === 0) break
    if (x === previousX) edits.push({ kind: '+', line: newLines[y - 1]!, number: y })
    else edits.push({ kind: '-', line: oldLines[x - 1]!, number: x })
    x = previousX
    y = previousY
  }
  return edits.reverse()
}

function replaceAll(oldLines: readonly string[], newLines: readonly string[]): LineEdit[] {
  return [
    ...oldLines.map((line, index) => ({ kind: '-' as const, line, number: index + 1 })),
    ...newLines.map((line, index) => ({ kind: '+' as const, line, number: index + 1 })),
  ]
}

/**
 * Unified-diff hunks (`@@ -a,b +c,d @@`) between two texts with `context` lines around each
 * change, or `''` when they are equal. Output past `maxLines` is cut with a note.
 */
export function unifiedDiff(oldText: string, newText: string, context = 3, maxLines = 400): string {
  if (oldText === newText) return ''
  const edits = diffLines(oldText.split('\n'), newText.split('\n'))
  const changed = edits.map((edit) => edit.kind !== ' ')
  const out: string[] = []
  let index = 0
  while (index < edits.length) {
    if (!changed[index]) {
      index++
      continue
    }
    // A hunk: from `context` lines before this change to `context` lines after the last
    // change that is no more than 2 * context lines from the previous one.
    const start = Math.max(0, index - context)
    let end = index
    while (end < edits.length) {
      let next = end + 1
      while (next < edits.length && !changed[next] && next - end <= 2 * context) next++
      if (next < edits.length && changed[next] && next - end <= 2 * context) end = next
      else break
    }
    const stop = Math.min(edits.length, end + context + 1)
    const hunk = edits.slice(start, stop)
    const { oldStart, newStart } = startsOf(edits, start)
    const oldCount = hunk.filter((edit) => edit.kind !== '+').length
    const newCount = hunk.filter((edit) => edit.kind !== '-').length
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`)
    for (const edit of hunk) out.push(`${edit.kind}${edit.line}`)
    index = stop
  }
  if (out.length > maxLines) {
    return [...out.slice(0, maxLines), `... ${out.length - maxLines} more diff lines`].join('\n')
  }
  return out.join('\n')
}

/** 1-based line numbers in the old and new text where edit `index` starts. */
function startsOf(edits: readonly LineEdit[], index: number): { oldStart: number; newStart: number } {
  let oldLine = 1
  let newLine = 1
  for (let i = 0; i < index; i++) {
    const kind = edits[i]!.kind
    if (kind !== '+') oldLine++
    if (kind !== '-') newLine++
  }
  return { oldStart: oldLine, newStart: newLine }
}
