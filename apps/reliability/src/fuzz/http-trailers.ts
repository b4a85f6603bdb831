import { ByteReader, defaultValueMapping, NativeBlockReader } from '@clickwire/protocol'
import { concatBytes } from '@clickwire/testing'

/** Where each Native block of a `FORMAT Native` body starts, and where decoding stopped. */
export function blockBoundaries(body: Uint8Array): { starts: number[]; end: number } {
  const reader = new ByteReader(body)
  const blocks = new NativeBlockReader({ revision: 0, timezone: 'UTC', mapping: defaultValueMapping }, false)
  const starts: number[] = []
  for (;;) {
    const start = reader.offset
    if (start >= body.length) return { starts, end: start }
    let block: unknown
    try {
      block = blocks.read(reader)
    } catch {
      block = undefined
    }
    if (block === undefined) return { starts, end: start }
    starts.push(start)
  }
}

const encoder = new TextEncoder()

/** What a modern server writes for the same error (24.x and later). */
const modernText =
  "Code: 395. DB::Exception: Value passed to 'throwIf' function is non-zero: while executing 'FUNCTION throwIf(equals(number, 150000_UInt32) :: 3) -> throwIf(equals(number, 150000_UInt32)) UInt8 : 2'. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 25.11.1.1)"

/** How a server ends a body whose query failed after output started (see http/src/exception-trailer.ts). */
export type TrailerForm = 'text' | 'marker' | 'tagged' | 'tagged-without-header'

export const trailerForms: readonly TrailerForm[] = ['text', 'marker', 'tagged', 'tagged-without-header']

/** A body of complete blocks followed by an exception in one of the forms servers use. */
export interface TrailerBody {
  readonly form: TrailerForm
  readonly bytes: Uint8Array
  /** The `X-ClickHouse-Exception-Tag` header that comes with it, if any. */
  readonly exceptionTag: string | undefined
  /** Whether the connection breaks after it (modern servers withhold the last chunk). */
  readonly abnormalEnd: boolean
}

/**
 * The four trailer forms after `blocks`: `text` is what 18.16 really sent (recorded, from
 * `recordedText`), the others are written after ClickHouse's HTTP handler (`__exception__`
 * from 24.x, the tagged form from 25.11), with and without the tag header.
 */
export function trailerBody(form: TrailerForm, blocks: Uint8Array, recordedText: Uint8Array): TrailerBody {
  const tag = 'q7Rk2M9xWb4ZpL0s'
  const text = encoder.encode(`${modernText}\n`)
  switch (form) {
    case 'text':
      return { form, bytes: concatBytes(blocks, recordedText), exceptionTag: undefined, abnormalEnd: false }
    case 'marker':
      return {
        form,
        bytes: concatBytes(blocks, '__exception__\r\n', text),
        exceptionTag: undefined,
        abnormalEnd: true,
      }
    case 'tagged':
    case 'tagged-without-header':
      return {
        form,
        bytes: concatBytes(
          blocks,
          `\r\n__exception__\r\n${tag}\r\n`,
          text,
          `${text.length} ${tag}\r\n__exception__\r\n`,
        ),
        exceptionTag: form === 'tagged' ? tag : undefined,
        abnormalEnd: true,
      }
  }
}
