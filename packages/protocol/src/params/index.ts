export {
  legacyParameterFeatures,
  modernParameterFeatures,
  type ParameterTypeFeatures,
  parameterFeaturesOf,
} from '../types/server-type-features.js'
export { commonParameterType, inferDynamicType, inferParameterType } from '../types/value-type-inference.js'
export { type BoundPlaceholder, bindPlaceholders, type QueryParameters } from './parameter-binding.js'
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
