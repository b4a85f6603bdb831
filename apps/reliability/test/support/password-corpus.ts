/**
 * Passwords with every printable ASCII character and with unicode: one per character, the
 * character in the middle of a distinctive secret, then longer mixes of every character in
 * a fixed pseudo-random order. The secret tests show none of them anywhere.
 */
const printable = Array.from({ length: 0x7f - 0x21 }, (_, i) => String.fromCharCode(0x21 + i))
const unicode = ['é', 'ß', '中', '🔑', 'e\u0301', '\u00a0', 'Ω', 'д']

function corpus(): string[] {
  const passwords = [...printable, ...unicode].map((char) => `Sx9${char}Qz7${char}Wk`)
  let seed = 0x9e3779b9
  const next = () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 0x1_0000_0000
  }
  const alphabet = [...printable, ...unicode]
  for (let i = 0; i < 40; i++) {
    passwords.push(
      `Mq${Array.from({ length: 12 }, () => alphabet[Math.floor(next() * alphabet.length)]).join('')}`,
    )
  }
  return passwords
}

export const secretPasswords: readonly string[] = corpus()

/** Every 5-character piece of a secret: none may show, not even cut up. */
export function secretPieces(secret: string): string[] {
  const chars = [...secret]
  return chars.slice(0, chars.length - 4).map((_, i) => chars.slice(i, i + 5).join(''))
}
