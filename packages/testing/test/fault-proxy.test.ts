import { describe, expect, inject, it } from 'vitest'
import { FaultProxy } from '../src/index.js'

const server = inject('clickhouse')

async function query(port: number, sql: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    body: sql,
    headers: { Connection: 'close' },
  })
  return response.text()
}

describe('FaultProxy', () => {
  it('passes traffic through unchanged, also in 1-byte fragments and with delay', async () => {
    const proxy = await FaultProxy.start({ host: server.host, port: server.ports.http })
    try {
      expect(await query(proxy.port, 'SELECT 40 + 2')).toBe('42\n')
      proxy.setFault({ fragment: true, delayMs: 5 })
      expect(await query(proxy.port, "SELECT 'fragmented'")).toBe('fragmented\n')
      expect(proxy.accepted).toBe(2)
    } finally {
      await proxy.close()
    }
  })

  it('cuts, resets and stalls at a byte offset', async () => {
    const proxy = await FaultProxy.start({ host: server.host, port: server.ports.http })
    try {
      proxy.setFault({ cutAfter: { direction: 'toClient', bytes: 20 } })
      await expect(query(proxy.port, 'SELECT 1')).rejects.toThrow()
      proxy.setFault({ resetAfter: { direction: 'toServer', bytes: 5 } })
      await expect(query(proxy.port, 'SELECT 1')).rejects.toThrow()
      proxy.setFault({ stallAfter: { direction: 'toClient', bytes: 0 } })
      await expect(
        fetch(`http://127.0.0.1:${proxy.port}/`, {
          method: 'POST',
          body: 'SELECT 1',
          signal: AbortSignal.timeout(300),
        }),
      ).rejects.toThrow(/abort|timeout/i)
      proxy.setFault({ refuse: true })
      await expect(query(proxy.port, 'SELECT 1')).rejects.toThrow()
    } finally {
      await proxy.close()
    }
    expect(proxy.open).toBe(0)
  })
})
