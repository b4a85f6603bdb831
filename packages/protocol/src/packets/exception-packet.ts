import { ClickHouseError } from '../errors/clickhouse-error.js'
import { ProtocolError } from '../errors/protocol-error.js'
import type { ByteReader } from '../io/byte-reader.js'
import type { ByteWriter } from '../io/byte-writer.js'
import type { PacketCodec, PacketInput } from './packet-codec.js'
import { ServerPacketId } from './packet-ids.js'

/**
 * A server exception (writeException in src/IO/WriteHelpers.cpp): Int32 code, the class name
 * (`DB::Exception`), the display text (`DB::Exception: Table default.x doesn't exist.`), the
 * stack trace (empty unless the server sends traces) and a has-nested byte. Servers up to
 * about 2020 wrote the nested exception right after when that byte was 1; modern ones always
 * write 0. The same layout answers a refused Hello.
 */
export interface ExceptionPacket {
  readonly type: 'Exception'
  /** The exception as a {@link ClickHouseError}; its message is the display text without the `DB::Exception: ` prefix. */
  readonly error: ClickHouseError
}

/** Deeper nesting than this is taken as malformed input. */
const maxNesting = 64

interface Frame {
  code: number
  name: string
  message: string
  stackTrace: string
}

/** The message without the `<class name>: ` that display texts start with. */
function messageOf(name: string, displayText: string): string {
  const prefix = `${name}: `
  return name !== '' && displayText.startsWith(prefix) ? displayText.slice(prefix.length) : displayText
}

export const exceptionCodec: PacketCodec<ExceptionPacket> = {
  id: ServerPacketId.Exception,
  type: 'Exception',
  encode(writer: ByteWriter, packet: PacketInput<ExceptionPacket>): void {
    writer.varUInt(ServerPacketId.Exception)
    let error: ClickHouseError | undefined = packet.error
    for (let depth = 0; error; depth++) {
      if (depth >= maxNesting) throw new ProtocolError(`exception nested deeper than ${maxNesting}`)
      writer.i32(error.code)
      writer.string(error.type)
      writer.string(error.type === '' ? error.message : `${error.type}: ${error.message}`)
      writer.string(error.serverStackTrace)
      writer.u8(error.nested ? 1 : 0)
      error = error.nested
    }
  },
  decodeBody(reader: ByteReader): ExceptionPacket | undefined {
    const frames: Frame[] = []
    for (;;) {
      const code = reader.i32()
      const name = reader.string()
      const displayText = reader.string()
      const stackTrace = reader.string()
      const hasNested = reader.u8()
      if (reader.short) return undefined
      frames.push({ code, name, message: messageOf(name, displayText), stackTrace })
      if (hasNested === 0) break
      if (frames.length >= maxNesting) {
        throw new ProtocolError(`exception nested deeper than ${maxNesting}`, { path: 'Exception' })
      }
    }
    let error: ClickHouseError | undefined
    for (let i = frames.length - 1; i >= 0; i--) {
      const frame = frames[i]!
      error = new ClickHouseError({
        code: frame.code,
        type: frame.name,
        message: frame.message,
        serverStackTrace: frame.stackTrace,
        nested: error,
      })
    }
    return { type: 'Exception', error: error! }
  },
}
