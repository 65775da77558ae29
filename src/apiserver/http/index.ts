// The face of the transport: the only room that knows sockets. It serves an API server over HTTP(S),
// authenticating each connection's bearer token, and holds the TLS material; the request and response
// shapes it translates to and from are in wire/, below every room that handles a request.
export { listen } from './http-adapter.js';
export type { Listening } from './http-adapter.js';
export { servingMaterial } from './tls/index.js';
export type { ServingMaterial } from './tls/index.js';
