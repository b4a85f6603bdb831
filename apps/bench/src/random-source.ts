/**
 * A small seeded pseudo-random source (sfc32: 128 bits of state, 32-bit integer maths) with
 * the distributions the ontime generator needs. Same seed, same sequence, on every
 * platform: the generated dataset is reproducible byte for byte.
 */
export class RandomSource {
  private a: number
  private b: number
  private c: number
  private d: number
  private spareNormal: number | undefined

  constructor(seed: number) {
    this.a = 0x9e3779b9
    this.b = 0x243f6a88
    this.c = 0xb7e15162
    this.d = seed >>> 0
    // Mix the seed in before the first value is used.
    for (let i = 0; i < 15; i++) this.nextUint32()
  }

  /** A source for a sub-stream (a day, a flight) that does not disturb this one's sequence. */
  static derive(seed: number, ...keys: number[]): RandomSource {
    let hash = seed >>> 0
    for (const key of keys) hash = mix32(hash ^ mix32(key >>> 0))
    return new RandomSource(hash)
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** Standard normal (Marsaglia's polar method). */
  normal(): number {
    const spare = this.spareNormal
    if (spare !== undefined) {
      this.spareNormal = undefined
      return spare
    }
    let u: number
    let v: number
    let s: number
    do {
      u = this.next() * 2 - 1
      v = this.next() * 2 - 1
      s = u * u + v * v
    } while (s >= 1 || s === 0)
    const factor = Math.sqrt((-2 * Math.log(s)) / s)
    this.spareNormal = v * factor
    return u * factor
  }

  /** Log-normal with the given median and log-space spread. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal())
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next())
  }
}

/** A 32-bit integer hash (murmur3's finaliser). */
export function mix32(value: number): number {
  let h = value >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Picks indexes with probability proportional to their weights (cumulative table, binary search). */
export class WeightedPicker {
  private readonly cumulative: Float64Array
  private readonly total: number

  constructor(weights: readonly number[]) {
    this.cumulative = new Float64Array(weights.length)
    let sum = 0
    weights.forEach((weight, index) => {
      sum += Math.max(0, weight)
      this.cumulative[index] = sum
    })
    if (!(sum > 0)) throw new Error('WeightedPicker needs at least one positive weight')
    this.total = sum
  }

  pick(random: RandomSource): number {
    const target = random.next() * this.total
    let low = 0
    let high = this.cumulative.length - 1
    while (low < high) {
      const middle = (low + high) >> 1
      if (this.cumulative[middle]! > target) high = middle
      else low = middle + 1
    }
    return low
  }
}
