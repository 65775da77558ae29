// The API server's ground floor: the vocabulary every other room of the server speaks, importing
// nothing of the server above it (only meta). The Status errors and their field causes, the string
// formats the schema and CEL both check, who a request comes from (the user and its groups) and what
// it asks (the request attributes an authorizer judges). Rooms import it through this face.
export {
  ApiStatusError,
  qualifiedResource,
  notFound,
  alreadyExists,
  conflict,
  modifiedConflict,
  causeText,
  invalid,
  badRequest,
  unauthorized,
  forbidden,
  forbiddenRequest,
  methodNotAllowed,
  methodNotAllowedBecause,
  notAcceptable,
  expired,
  tooLarge,
  unsupportedMediaType,
  timeout,
  conversionFailed,
  internalError,
  successStatus,
} from './status.js';
export { fieldCause, renderValue, childPath, indexPath } from './field-cause.js';
export type { FieldCause } from './field-cause.js';
export { isBase64, isDate, isDateTime, isUuid, numberMatchesFormat, stringMatchesFormat } from './formats.js';
export { ADMIN_USER, ANONYMOUS_USER, isMaster, parseServiceAccountUsername, serviceAccountUser } from './user.js';
export type { UserInfo } from './user.js';
export { requestAttributes } from './request-attributes.js';
export type { RequestAttributes, ResourceAttributes } from './request-attributes.js';
export { OLDEST_MINOR, NEWEST_MINOR, SUPPORTED_MINORS, parseKubernetesVersion } from './kubernetes-version.js';
