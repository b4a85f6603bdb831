/**
 * `@clickwire/http/internal`: the pieces under the transport, for clickwire's own
 * reliability suite, which feeds constructed `FORMAT Native` bodies to the real reader.
 * Not a stable API: these exports may change in any release.
 *
 * @packageDocumentation
 */
export { NativeResult } from './http-native-result.js'
