// Kubernetes CEL: compile an expression against declared variables (with cel-go's worst-case cost
// estimate) in the environment of one Kubernetes minor (new or stored expression; which library
// came in which minor), evaluate it within a cost budget, and convert JSON values to CEL under their declared type;
// and the authz library's `authorizer` value for admission expressions.
export { compile } from './compile.js';
export type { Program, CompileResult } from './compile.js';
export { CEL_LIBRARY_VERSIONS } from './library-versions.js';
export type { CelLibraryVersion, CelEnvironmentVersion, ExpressionMode } from './library-versions.js';
export { evaluate } from './evaluate.js';
export type { EvaluationResult } from './evaluate.js';
export { toCelValue, celOptionalOf, celOptionalNone } from './values.js';
export { celFieldName } from './field-names.js';
export type { CelType, Declarations } from './types.js';
export { maxElements, minSerializedSize, MAX_REQUEST_SIZE_BYTES } from './types.js';
export { celAuthorizer } from './lib-authz.js';
export type { CelAuthorizer, RequestResource } from './lib-authz.js';
export {
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES,
  costErrorMessage,
  strictCost,
} from './limits.js';
