import { describe, expect, it } from 'vitest'
import { featuresOf, nativeRevision, type ProbedServer } from './server-features.js'

const probed = (version: string, serverRevision: number): ProbedServer => ({
  version,
  timezone: 'UTC',
  serverRevision,
  versionFull: `ClickHouse ${version}`,
  displayName: '',
})

describe('the revision of a server over HTTP', () => {
  it("is the native handshake's: VERSION_REVISION capped at 54488 before 26.8, at protocolRevision always", () => {
    // VERSION_REVISION as each build reports it (26.9.2.1: 54515).
    expect(featuresOf(probed('26.9.2.1', 54515), 54492).revision).toBe(54492)
    expect(featuresOf(probed('26.8.1.1', 54513), 54492).revision).toBe(54492)
    expect(featuresOf(probed('26.7.2.1', 54510), 54492).revision).toBe(54488)
    expect(featuresOf(probed('18.16.1', 54412), 54492).revision).toBe(54412)
    expect(featuresOf(probed('26.9.2.1', 54515), 54488).revision).toBe(54488)
    expect(featuresOf(probed('23.8.1', 0), 54492).revision).toBe(0)
  })

  it('asks Native answers at it only when the caller set protocolRevision, and from 54492 on', () => {
    const latest = featuresOf(probed('26.9.2.1', 54515), 54492)
    expect(nativeRevision(latest, true)).toBe(54492)
    expect(nativeRevision(latest, false)).toBe(0)
    expect(nativeRevision(featuresOf(probed('26.9.2.1', 54515), 54488), true)).toBe(0)
    expect(nativeRevision(featuresOf(probed('26.7.2.1', 54510), 54492), true)).toBe(0)
  })
})

describe('the readonly level and the cancel-on-close setting', () => {
  it('are taken from the probe, unknown as -1 and false', () => {
    const base = probed('26.9.2.1', 54515)
    expect(featuresOf({ ...base, readonly: '0', cancelsOnClientClose: true }, 54492)).toMatchObject({
      readonly: 0,
      cancelsOnClientClose: true,
    })
    expect(featuresOf({ ...base, readonly: '2', cancelsOnClientClose: true }, 54492).readonly).toBe(2)
    expect(featuresOf({ ...base, readonly: '' }, 54492)).toMatchObject({
      readonly: -1,
      cancelsOnClientClose: false,
    })
    expect(featuresOf(base, 54492)).toMatchObject({ readonly: -1, cancelsOnClientClose: false })
  })
})
