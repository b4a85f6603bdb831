import { describe, expect, it } from 'vitest'
import { parseVersion, versionAtLeast } from './server-features.js'

describe('server versions', () => {
  it('parses versions and compares them', () => {
    expect(parseVersion('18.16.1')).toEqual([18, 16, 1])
    expect(parseVersion('24.8.4.13')).toEqual([24, 8, 4])
    expect(parseVersion('fork-1')).toEqual([0, 0, 0])
    expect(versionAtLeast('18.16.1', 20, 1)).toBe(false)
    expect(versionAtLeast('20.1.2.4', 20, 1)).toBe(true)
    expect(versionAtLeast('25.11.1', 20, 1)).toBe(true)
  })
})
