// The face of authentication: the admin's bearer token and the tokens minted for ServiceAccounts,
// each mapped to the user it names. The transport asks it who a token is; the server context keeps
// the minted ones.
export { adminTokenAuthenticator, adminTokenMatcher, generateAdminToken } from './admin-token.js';
export { ServiceAccountTokens } from './service-account-tokens.js';
export type { IssuedToken } from './service-account-tokens.js';
