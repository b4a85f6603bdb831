import type { Buffer } from 'node:buffer'
import { Readable } from 'node:stream'
import { createGunzip, createInflate } from 'node:zlib'
import { type BodyReader, backendFailure } from './http-backend.js'

/**
 * An HTTP-compressed body, inflated with node:zlib as it is read.
 *
 * A body that breaks off is inflated to its last byte before the break is reported: 25.x+
 * servers end a response whose query failed late by writing the exception into the
 * compressed stream and closing the connection without the last chunk, so the exception
 * text sits in the bytes just before the break (and often in a gzip member that is whole).
 */
export function decompressed(body: BodyReader, encoding: 'gzip' | 'deflate'): BodyReader {
  let failure: { error: unknown } | undefined
  const source = Readable.from(
    (async function* () {
      for (;;) {
        let chunk: Uint8Array | undefined
        try {
          chunk = await body.read()
        } catch (error) {
          failure = { error }
          return
        }
        if (chunk === undefined) return
        yield chunk
      }
    })(),
    { objectMode: false },
  )
  const inflate = encoding === 'gzip' ? createGunzip() : createInflate()
  source.on('error', (error) => inflate.destroy(error))
  source.pipe(inflate)
  const iterator = inflate[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const bodyFailure = (error: unknown) =>
    error && typeof error === 'object' && 'phase' in error ? error : backendFailure('body', error)
  return {
    async read() {
      let step: IteratorResult<Buffer>
      try {
        step = await iterator.next()
      } catch (error) {
        // A stream cut inside a gzip member also fails to inflate; the break is the cause.
        throw bodyFailure(failure ? failure.error : error)
      }
      if (!step.done) return new Uint8Array(step.value.buffer, step.value.byteOffset, step.value.length)
      if (failure) throw bodyFailure(failure.error)
      return undefined
    },
    cancel(reason) {
      body.cancel(reason)
      inflate.destroy()
    },
  }
}
