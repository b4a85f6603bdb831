import fc from 'fast-check'

/**
 * Pieces that break escaping: quotes of every kind, backslashes and escape look-alikes,
 * NUL and other control characters, comment and statement starters, placeholders
 * (`{p0:String}`, the names the tests use, and their full-width look-alikes), and unicode
 * that changes how text reads (line separators, direction overrides, BOM, combining marks).
 */
export const trickyPieces: readonly string[] = [
  "'",
  "''",
  '\\',
  "\\'",
  '\\\\',
  '\\0',
  '\\N',
  '\0',
  '\n',
  '\r\n',
  '\t',
  '\x1b',
  '\x7f',
  '"',
  '`',
  '``',
  ';',
  '--',
  '/*',
  '*/',
  '#!',
  '$$',
  '{p0:String}',
  '{p1:String}',
  '{ p0 : String }',
  '{p0:UInt8}',
  '{x:String}',
  '{{x}}',
  '{',
  '}',
  ':String}',
  '｛ｘ：Ｓｔｒｉｎｇ｝',
  'NULL',
  "' OR 1=1 --",
  '\u2028',
  '\u202e',
  '\ufeff',
  'e\u0301',
  '😀',
  '𝕏',
  'ß',
  '中文',
]

/** Strings built from tricky pieces and random text (well-formed UTF-16: every one has a UTF-8 form). */
export const trickyString: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...trickyPieces) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 6 }) },
    ),
    { maxLength: 8 },
  )
  .map((pieces) => pieces.join(''))

/** Upper-case hex of a string's UTF-8 bytes, as ClickHouse's hex() prints it. */
export function utf8Hex(text: string): string {
  return Buffer.from(text, 'utf8').toString('hex').toUpperCase()
}
