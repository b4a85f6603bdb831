// Records the byte streams the fuzzers start from (CLICKWIRE_RECORD=1 writes them to
// src/fuzz/recorded/), and checks on every run that the live server still sends streams
// of the same shape, so the recorded seeds stay representative.
import { writeFileSync } from 'node:fs'
import { describe, expect, inject, it } from 'vitest'
import {
  httpRecordings,
  nativeRecordings,
  recordedBytes,
  recordingUrl,
} from '../src/fuzz/recorded-streams.js'
import { decodeHttpBody, decodeNativeStream, type StreamShape } from '../src/fuzz/stream-decoding.js'
import { recordHttp, recordNative } from './support/stream-recorder.js'

const server = inject('clickhouse')
const record = process.env.CLICKWIRE_RECORD === '1'
/** The recordings come from Debian's 18.16.1: another server sends other (equally valid) bytes. */
const sameServer = record || server.version.startsWith('18.16.')

/** The packets that make a result (Progress and Log packets come and go with timing). */
function resultShape(shape: StreamShape): string[] {
  return shape.events.filter((event) => !/^(Progress|Log|ProfileInfo)/.test(event))
}

describe.runIf(sameServer)('recorded native streams', () => {
  for (const recording of nativeRecordings) {
    it(`${recording.name}: the live server sends a stream of the recorded shape`, async () => {
      const live = await recordNative(server, recording)
      if (record) writeFileSync(recordingUrl(recording.name), live)
      const stored = recordedBytes(recording.name)
      const liveShape = await decodeNativeStream([live], recording.compression)
      const storedShape = await decodeNativeStream([stored], recording.compression)
      expect(resultShape(liveShape)).toEqual(resultShape(storedShape))
      expect(storedShape.events.at(-1)).toMatch(/^(EndOfStream|ClickHouseError)/)
    })
  }
})

describe.runIf(sameServer)('recorded HTTP bodies', () => {
  for (const recording of httpRecordings) {
    it(`${recording.name}: the live server sends a body of the recorded shape`, async () => {
      const live = await recordHttp(server, recording)
      if (record) writeFileSync(recordingUrl(recording.name), live)
      const stored = recordedBytes(recording.name)
      const liveShape = await decodeHttpBody([live])
      const storedShape = await decodeHttpBody([stored])
      expect(liveShape.events).toEqual(storedShape.events)
      expect(storedShape.events.at(-1)).toMatch(/^(End|ClickHouseError)/)
    })
  }
})
