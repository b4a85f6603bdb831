import { connect, type Socket } from 'node:net'
import { ConnectionError } from '@clickwire/protocol'

/**
 * How long the server may stay silent after our Hello before a second connection asks the
 * port whether it speaks HTTP. A native server answers a Hello within milliseconds; an HTTP
 * server never does (the Hello holds no line break, so it waits for the rest of a request
 * line until its receive timeout), which without the probe ends only at the connect timeout.
 */
export const httpProbeDelayMs = 1000

/** What the probe sends: a request every ClickHouse HTTP server answers with `200 Ok.`. */
const pingRequest = (host: string) => `GET /ping HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`

/** A probe under way: `detected` rejects once the port turns out to speak HTTP, else never settles. */
export interface HttpPortProbe {
  readonly detected: Promise<never>
  /** Drops the probe's socket and timer (the Hello was answered, or the connect ended). */
  stop(): void
}

/**
 * Starts a probe of `host:port` for plain TCP connects: after {@link httpProbeDelayMs}
 * without an answer to the Hello, a separate socket sends `GET /ping`; an `HTTP/1.` status
 * line back means the URL names the HTTP port, and `detected` rejects with a
 * ConnectionError that says to use an http:// URL. The native connection itself is never
 * written to, so a native server that is merely slow sees only a short HTTP request on a
 * second socket, which it refuses with a 400 of its own.
 */
export function probeHttpPort(host: string, port: number, delayMs = httpProbeDelayMs): HttpPortProbe {
  let socket: Socket | undefined
  let stopped = false
  let reject: (error: Error) => void = () => {}
  const detected = new Promise<never>((_, fail) => {
    reject = fail
  })
  // Nobody may be waiting on it when it settles (the connect already ended).
  detected.catch(() => {})
  const timer = setTimeout(() => {
    if (stopped) return
    const probe = connect({ host, port })
    socket = probe
    probe.unref()
    let answer = ''
    probe.setEncoding('latin1')
    probe.on('connect', () => probe.write(pingRequest(host)))
    probe.on('data', (chunk: string) => {
      answer += chunk
      if (answer.length < 12) return
      // Only a 200: a native port answers an HTTP request too, with its own 400.
      if (/^HTTP\/1\.[01] 200/.test(answer)) {
        reject(
          new ConnectionError(
            `${host}:${port} speaks HTTP, not the native protocol: it answered GET /ping and not our Hello. Use an http:// (or https://) URL for this port, or the server's native port (tcp_port, 9000 by default; 9440 with TLS) with clickhouse://`,
          ),
        )
      }
      probe.destroy()
    })
    // The probe only ever adds a clearer error: its own failures are nobody's business.
    probe.on('error', () => {})
  }, delayMs)
  timer.unref()
  return {
    detected,
    stop() {
      stopped = true
      clearTimeout(timer)
      socket?.destroy()
    },
  }
}
