import { versionAtLeast } from '@clickwire/protocol'
import { describe, expect, it } from 'vitest'
import { currentServerProfile, serverProfile } from './server-profile.js'

describe('serverProfile', () => {
  it('knows what 18.16 lacks', () => {
    expect(serverProfile('18.16.1')).toEqual({
      version: '18.16.1',
      parameterTypes: { bool: false, dateTime64: false, map: false },
      namedSubqueries: false,
      lightweightDelete: false,
      lightweightUpdate: false,
      reportsWrittenRows: false,
    })
  })

  it('turns each feature on at the release that brought it', () => {
    expect(serverProfile('20.1.2').parameterTypes).toEqual({ bool: false, dateTime64: true, map: false })
    expect(serverProfile('19.17.1').reportsWrittenRows).toBe(false)
    expect(serverProfile('20.1.2').reportsWrittenRows).toBe(true)
    expect(serverProfile('20.9.7').namedSubqueries).toBe(false)
    expect(serverProfile('20.10.1').namedSubqueries).toBe(true)
    expect(serverProfile('21.1.1').parameterTypes.map).toBe(true)
    expect(serverProfile('21.11.9').parameterTypes.bool).toBe(false)
    expect(serverProfile('21.12.1').parameterTypes.bool).toBe(true)
    expect(serverProfile('23.2.7').lightweightDelete).toBe(false)
    expect(serverProfile('23.3.1.2823').lightweightDelete).toBe(true)
    expect(serverProfile('25.8.1').lightweightDelete).toBe(true)
    expect(serverProfile('25.7.3').lightweightUpdate).toBe(false)
    expect(serverProfile('25.8.1').lightweightUpdate).toBe(true)
  })

  it('is one object per version, and a current server when the version is unknown', () => {
    expect(serverProfile('18.16.1')).toBe(serverProfile('18.16.1'))
    expect(currentServerProfile).toBe(serverProfile(''))
    expect(currentServerProfile.lightweightDelete && currentServerProfile.parameterTypes.bool).toBe(true)
    expect(versionAtLeast('', 99, 0)).toBe(true)
    expect(versionAtLeast('24.3', 24, 3)).toBe(true)
    expect(versionAtLeast('24.2', 24, 3)).toBe(false)
    expect(versionAtLeast('25.1', 24, 3)).toBe(true)
  })
})
