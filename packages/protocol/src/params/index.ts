export {
  inferParameterType,
  legacyParameterFeatures,
  modernParameterFeatures,
  type ParameterTypeFeatures,
  parameterFeaturesOf,
} from './infer-parameter-type.js'
export { type BoundPlaceholder, bindPlaceholders, type QueryParameters } from './parameter-binding.js'
export {
  escapeParameterText,
  quoteParameterText,
  quoteSqlIdentifier,
  quoteWireValue,
} from './parameter-escaping.js'
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
