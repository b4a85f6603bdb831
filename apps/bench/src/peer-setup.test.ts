import { describe, expect, it } from 'vitest'
import { pythonPeerPackages, staleDistInfo } from './peer-setup.js'

describe('staleDistInfo', () => {
  it('picks the dist-info of pinned packages left at another version, and nothing else', () => {
    const entries = [
      'clickhouse_connect',
      'clickhouse_connect-1.4.2.dist-info',
      'clickhouse_connect-1.12.0.dist-info',
      'clickhouse_connect_core-0.2.3.dist-info',
      'clickhouse_driver-0.2.11.dist-info',
      'urllib3-2.8.0.dist-info',
      'ujson.cpython-311-x86_64-linux-gnu.so',
    ]
    expect(
      staleDistInfo(entries, [
        'clickhouse-connect==1.12.0',
        'clickhouse-connect-core==0.2.3',
        'clickhouse-driver==0.2.11',
      ]),
    ).toEqual(['clickhouse_connect-1.4.2.dist-info'])
  })

  it('matches names case-insensitively with dots and dashes as underscores', () => {
    expect(
      staleDistInfo(
        ['Zope.Interface-5.0.dist-info', 'zope_interface-6.1.dist-info'],
        ['zope.interface==6.1'],
      ),
    ).toEqual(['Zope.Interface-5.0.dist-info'])
  })

  it('pins every peer package to one version', () => {
    for (const pin of pythonPeerPackages) expect(pin).toMatch(/^[\w.-]+==[\w.]+$/)
    expect(pythonPeerPackages).toContain('clickhouse-connect==1.12.0')
    expect(pythonPeerPackages).toContain('clickhouse-connect-core==0.2.3')
  })
})
