// The face of the server's TLS: the serving certificate and key the HTTPS listener presents, signed by
// a CA made once per process (the loopback-only material is also kept in a per-user disk cache).
export { servingMaterial } from './certificates.js';
export type { ServingMaterial } from './certificates.js';
