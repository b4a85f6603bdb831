// `@clickwire/protocol/params`: query parameter binding and formatting (typed literals,
// `param_<name>` fields, placeholders). Off the main entry so that callers can load it with
// `import()` only when a call has parameters, keeping it out of a browser page's first load.

export { commonParameterType, inferDynamicType, inferParameterType } from '../types/value-type-inference.js'
export {
  type BoundPlaceholder,
  bindPlaceholders,
  type QueryParameters,
  requirePlaceholderValues,
} from './parameter-binding.js'
export {
  defaultMaxQuerySize,
  maxQuerySizeOf,
  parameterLiteral,
  substituteParameters,
} from './parameter-substitution.js'
export { canonicalParameterType } from './parameter-type-names.js'
export { type QueryPlaceholder, scanPlaceholders } from './placeholder-scanner.js'
export {
  httpQueryParameters,
  nativeParameterFlags,
  nativeQueryParameters,
  parameterText,
  type ServerParameter,
  serverParameters,
} from './server-parameters.js'
