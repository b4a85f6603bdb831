import { describe, expect, it } from 'vitest'
import { permissionRefusal } from './permission-refusal.js'
import { UsageError } from './usage-error.js'

/** An error as Deno makes it: a class of Deno.errors, told apart by its name. */
function denoError(name: string, message: string): Error {
  const error = new Error(message)
  error.name = name
  return error
}

describe('permissionRefusal', () => {
  it("is a UsageError with Deno's message, which names the flag, found through the causes", () => {
    const refused = denoError(
      'NotCapable',
      'Requires net access to "127.0.0.1:9000", run again with the --allow-net flag',
    )
    const wrapped = new Error('socket failed', { cause: { code: undefined, cause: refused } })
    const error = permissionRefusal(wrapped, 'connection to 127.0.0.1:9000 failed')
    expect(error).toBeInstanceOf(UsageError)
    expect(error?.message).toBe(
      'connection to 127.0.0.1:9000 failed: the runtime refused a permission: Requires net access to "127.0.0.1:9000", run again with the --allow-net flag',
    )
    expect(error?.cause).toBe(refused)
  })

  it('names the flag itself where the message does not (Deno 1.x PermissionDenied)', () => {
    expect(
      permissionRefusal(denoError('PermissionDenied', 'net access to "h:1"'), 'POST h:1 failed')?.message,
    ).toBe(
      'POST h:1 failed: the runtime refused a permission: net access to "h:1" (grant it with the --allow-* flag the runtime names)',
    )
  })

  it('is undefined for any other error', () => {
    expect(
      permissionRefusal(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'x'),
    ).toBe(undefined)
    expect(permissionRefusal(undefined, 'x')).toBe(undefined)
  })
})
