import { CallDeadline, type CompressionCodecs, decodeUtf8, newQueryId, UsageError } from '@clickwire/protocol'
import type { BodyReader } from './http-backend.js'
import { readExchange } from './http-exchange.js'
import type { ResolvedOptions } from './http-options.js'
import type { RequestSender } from './request-lifetime.js'
import { SharedProbe } from './shared-probe.js'

// The frame code (reader, CityHash) loads only when frames are asked for: a page that
// never turns compression on never downloads it.
const loadFrames = () => import('@clickwire/protocol/frames')

/** Block codecs for compressed frames: the options', else the platform's, loaded once. */
export function frameCodecLoader(
  configured: CompressionCodecs | undefined,
  load: (() => Promise<CompressionCodecs>) | undefined,
): () => Promise<CompressionCodecs> {
  let codecs: Promise<CompressionCodecs> | undefined
  return () => {
    codecs ??= configured ? Promise.resolve(configured) : (load?.() ?? Promise.resolve({}))
    return codecs
  }
}

/**
 * The payload of a whole body in compressed frames, or `bytes` as they are when they are not
 * frames: the answer to a request that asked `compress=1` comes framed even when it is an
 * error (HTTP 500 with the data so far and the exception text, all in frames).
 */
export async function unframeBody(
  bytes: Uint8Array,
  codecs: () => Promise<CompressionCodecs>,
): Promise<Uint8Array> {
  const [loaded, { FrameDecoder }] = await Promise.all([codecs(), loadFrames()])
  let parts: Uint8Array[]
  try {
    parts = new FrameDecoder(loaded).push(bytes)
  } catch {
    return bytes
  }
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  length = 0
  for (const part of parts) {
    out.set(part, length)
    length += part.length
  }
  return out
}

/**
 * Whether responses come in ClickHouse compressed frames (`compress=1`), for the
 * `frames` response compression: asked once per transport with `SELECT 1`, because some
 * servers get it wrong (Debian's 18.16 answers an empty body) and then the answers stay
 * plain. The answer carries the codecs to decode the frames with, so reading a framed
 * body never depends on this probe having run before.
 */
export class FramesProbe {
  readonly #probe: SharedProbe<CompressionCodecs | undefined>

  constructor(
    private readonly options: ResolvedOptions,
    sender: RequestSender,
    codecs: () => Promise<CompressionCodecs>,
  ) {
    this.#probe = new SharedProbe(async (signal) => {
      const [loaded, { FrameDecoder }] = await Promise.all([codecs(), loadFrames()])
      try {
        const exchange = await sender.send(
          { queryId: newQueryId(), defaultFormat: 'TabSeparated', framedResponse: true, inSession: false },
          'SELECT 1',
          {
            deadline: CallDeadline.background(sender.closing, signal),
            repeatable: () => ({ kind: 'statement', sql: 'SELECT 1' }),
            kill: false,
          },
        )
        const bytes = await readExchange(exchange, 4096, 'reading the answer to SELECT 1')
        if (bytes.length === 0) return undefined
        const decoder = new FrameDecoder(loaded)
        const payload = decoder.push(bytes)
        decoder.finish()
        return payload.length === 1 && decodeUtf8(payload[0]!) === '1\n' ? loaded : undefined
      } catch (error) {
        // A missing codec is the caller's to fix; anything else means: no frames here.
        if (UsageError.isInstance(error) || signal.aborted) throw error
        return undefined
      }
    })
  }

  /** The codecs to decode framed responses with, or undefined when responses stay plain. */
  async framing(deadline: CallDeadline): Promise<CompressionCodecs | undefined> {
    if (this.options.responseCompression !== 'frames') return undefined
    return this.#probe.get(deadline)
  }
}

/**
 * A body of compressed frames as the plain bytes they carry, decoded with `codecs`. A
 * frame may decompress to `maxBlockBytes` at most (a Native answer's blocks are checked
 * against it too): LZ4 expands up to 255 times, and the header says by how much first.
 */
export function unframe(body: BodyReader, codecs: CompressionCodecs, maxBlockBytes?: number): BodyReader {
  // Loaded already by the probe that chose frames, so this settles at once.
  const decoding = loadFrames().then(
    ({ FrameDecoder }) =>
      new FrameDecoder(codecs, {
        maxUncompressedSize: maxBlockBytes,
        limitName: maxBlockBytes === undefined ? undefined : `maxBlockBytes (${maxBlockBytes})`,
      }),
  )
  const ready: Uint8Array[] = []
  return {
    read: async () => {
      const decoder = await decoding
      for (;;) {
        const next = ready.shift()
        if (next) return next
        const chunk = await body.read()
        if (chunk === undefined) {
          decoder.finish()
          return undefined
        }
        ready.push(...decoder.push(chunk))
      }
    },
    cancel: (reason) => body.cancel(reason),
  }
}
