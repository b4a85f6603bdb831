import { ByteWriter, defaultValueMapping } from '@clickwire/protocol'
import { NativeBlockWriter } from '@clickwire/protocol/insert'

/** A `FORMAT Native` body of one block: a UInt8 column `n` holding 0 … count-1. */
export function uint8Body(count: number): Uint8Array {
  const writer = new ByteWriter()
  new NativeBlockWriter({ revision: 0, timezone: 'UTC', mapping: defaultValueMapping }, false).write(
    writer,
    [{ name: 'n', type: 'UInt8', values: Uint8Array.from({ length: count }, (_, i) => i) }],
    count,
  )
  return writer.copy()
}
