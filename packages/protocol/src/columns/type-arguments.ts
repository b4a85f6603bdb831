import { UsageError } from '../errors/usage-error.js'
import { type TypeNode, typeToString } from '../types/type-node.js'

/** The `index`-th number argument of a type (`DateTime64(3)`, `Decimal(9, 2)`), checked to be an integer in range. */
export function integerArgument(
  type: TypeNode,
  index: number,
  min: number,
  max: number,
  what: string,
): number {
  let seen = 0
  for (const arg of type.args) {
    if (arg.kind !== 'number') continue
    if (seen++ !== index) continue
    if (!Number.isInteger(arg.value) || arg.value < min || arg.value > max)
      throw new UsageError(`${typeToString(type)}: ${what} must be an integer from ${min} to ${max}`)
    return arg.value
  }
  throw new UsageError(`${typeToString(type)}: missing ${what}`)
}

/** The first quoted-string argument (a time zone), if any. */
export function stringArgument(type: TypeNode): string | undefined {
  for (const arg of type.args) if (arg.kind === 'string') return arg.value
  return undefined
}
