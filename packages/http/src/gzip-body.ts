/**
 * A request body gzip-encoded as it is produced (`Content-Encoding: gzip`), through the
 * runtime's CompressionStream (Node 18+, browsers, edge runtimes). Memory stays bounded:
 * the source is read only as fast as compressed bytes are taken.
 */
export async function* gzipChunks(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const stream = new CompressionStream('gzip')
  const writer = stream.writable.getWriter()
  const reader = stream.readable.getReader()
  let failure: { error: unknown } | undefined
  const feeding = (async () => {
    try {
      for await (const chunk of source) await writer.write(chunk as Uint8Array<ArrayBuffer>)
      await writer.close()
    } catch (error) {
      failure = { error }
      await writer.abort(error).catch(() => {})
    }
  })()
  try {
    for (;;) {
      const step = await reader.read().catch((error: unknown) => {
        throw failure ? failure.error : error
      })
      if (step.done) break
      yield step.value
    }
    await feeding
    if (failure) throw failure.error
  } finally {
    reader.releaseLock()
  }
}
