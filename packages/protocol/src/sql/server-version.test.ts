import { describe, expect, it } from 'vitest'
import { parseServerVersion, versionAtLeast } from './server-version.js'

describe('server versions', () => {
  it('reads and compares versions', () => {
    expect(parseServerVersion('18.16.1')).toEqual([18, 16, 1])
    expect(parseServerVersion('24.8.4.13')).toEqual([24, 8, 4])
    expect(parseServerVersion('fork-1')).toEqual([0, 0, 0])
    expect(versionAtLeast('18.16.1', 20, 1)).toBe(false)
    expect(versionAtLeast('20.1.2', 20, 1)).toBe(true)
    expect(versionAtLeast('21.0.1', 20, 10)).toBe(true)
    expect(versionAtLeast('', 99, 0)).toBe(true)
    expect(versionAtLeast('fork-1', 1, 0)).toBe(false)
  })
})
