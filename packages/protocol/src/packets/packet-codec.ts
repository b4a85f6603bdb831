import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'

/** What an encoder takes for a packet: its fields, with the `type` tag optional. */
export type PacketInput<Packet extends { readonly type: string }> = Omit<Packet, 'type'> & {
  readonly type?: Packet['type']
}

/**
 * Encoder and decoder of one packet kind.
 *
 * `encode` writes the whole packet: the id, then the body. `decodeBody` reads only the body,
 * because a reader has to read the id first to know which packet follows (see
 * `decodeServerPacket` / `decodeClientPacket`). Both take the negotiated revision (the
 * smaller of the two announced ones); every field introduced by a later revision is
 * written and read only when the revision reaches it.
 *
 * `decodeBody` returns undefined when the input ran short; the reader's `missing` then says
 * how far the input must reach, and the caller retries from the packet start with more
 * bytes. Malformed input throws {@link ProtocolError}.
 */
export interface PacketCodec<Packet extends { readonly type: string }, Input = PacketInput<Packet>> {
  /** The packet id. */
  readonly id: number
  /** The `type` tag of decoded packets. */
  readonly type: Packet['type']
  encode(writer: ByteWriter, packet: Input, revision: number): void
  decodeBody(reader: ByteReader, revision: number): Packet | undefined
}

/** Largest element count accepted for a list inside a packet before the input is taken as malformed. */
export const maxPacketListLength = 1_000_000
