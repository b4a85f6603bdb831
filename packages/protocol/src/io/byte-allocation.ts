import { ProtocolError } from '../errors/protocol-error.js'

interface NodeBufferConstructor {
  allocUnsafeSlow(size: number): Uint8Array
}

const NodeBuffer = (globalThis as unknown as { Buffer?: NodeBufferConstructor }).Buffer

/** The most bytes one receive buffer holds (Node's Buffer limit): one block must fit in it. */
export const maxBufferBytes = 2 ** 32

/**
 * Memory for received bytes. Everything in it is written before it is read, so Node's
 * unzeroed allocation is safe and saves clearing megabytes per buffer; elsewhere a plain
 * (zeroed) Uint8Array. The Buffer is viewed as a plain Uint8Array so decoders see one type.
 *
 * `size` may be trimmed to {@link maxBufferBytes}, never below `minimum`. A `minimum` above
 * it comes from a length or row count no block can have (a corrupt or hostile stream): that
 * is a ProtocolError, not a RangeError from the allocator.
 */
export function allocateBytes(size: number, minimum = size): Uint8Array {
  if (minimum > maxBufferBytes) {
    throw new ProtocolError(
      `the input announces a packet of ${minimum} bytes, more than the ${maxBufferBytes} one buffer holds`,
    )
  }
  size = Math.min(size, maxBufferBytes)
  if (NodeBuffer) {
    const buffer = NodeBuffer.allocUnsafeSlow(size)
    return new Uint8Array(buffer.buffer, buffer.byteOffset, size)
  }
  return new Uint8Array(size)
}
