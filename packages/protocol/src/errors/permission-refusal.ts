import { UsageError } from './usage-error.js'

/** The names Deno gives a refused permission: `NotCapable` since 2.0, `PermissionDenied` before. */
const refusalNames = new Set(['NotCapable', 'PermissionDenied'])

/**
 * A runtime's refusal of a permission, found in `cause` or the causes it wraps, as a
 * {@link UsageError}: Deno run without `--allow-net` refuses the socket, and that is the
 * caller's to fix, not a host that is down (a `ConnectionError` would be retried and would
 * set the host aside). Deno's own message names the flag; where a message does not, ours
 * does. Undefined for any other error.
 */
export function permissionRefusal(cause: unknown, detail: string): UsageError | undefined {
  for (let current = cause, depth = 0; current && depth < 4; depth++) {
    const { name, message } = current as { name?: unknown; message?: unknown }
    if (typeof name === 'string' && refusalNames.has(name)) {
      const text = typeof message === 'string' ? message : name
      const flag = /--allow-[a-z-]+/.test(text) ? '' : ' (grant it with the --allow-* flag the runtime names)'
      return new UsageError(`${detail}: the runtime refused a permission: ${text}${flag}`, { cause: current })
    }
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}
