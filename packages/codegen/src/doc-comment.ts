/**
 * A TSDoc comment from paragraphs of plain text, or `''` when there is nothing to say.
 * One short line stays on one line; anything longer is a block. Text that would end the
 * comment (`*\/`) is broken up, and CR LF / CR line ends become LF.
 *
 * @example
 * ```ts
 * docComment(['Flight date.', '`Date`'], '  ')
 * // '  /**\n   * Flight date.\n   *\n   * `Date`\n   *\/\n'
 * ```
 */
export function docComment(paragraphs: readonly string[], indent: string): string {
  const lines: string[] = []
  for (const paragraph of paragraphs) {
    const text = paragraph.replace(/\r\n?/g, '\n').replace(/\*\//g, '*\\/').trimEnd()
    if (text.trim() === '') continue
    if (lines.length > 0) lines.push('')
    lines.push(...text.split('\n').map((line) => line.trimEnd()))
  }
  if (lines.length === 0) return ''
  if (lines.length === 1 && indent.length + lines[0]!.length <= 100) return `${indent}/** ${lines[0]} */\n`
  return `${indent}/**\n${lines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)).join('\n')}\n${indent} */\n`
}
