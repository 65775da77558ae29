/**
 * TLS contexts shared by every connection in the process that uses the same CA, client certificate
 * and key. Node makes a context per connection from PEM by default, which costs a millisecond or two
 * of parsing each time (more than the request itself against a local server). Invariant: a context
 * is made from exactly the material given and reused only for that material; at most `MAX_CONTEXTS`
 * are kept (oldest dropped first), so rotating client certificates cannot grow the cache without bound.
 */
import { createSecureContext, type SecureContext } from 'node:tls';

const MAX_CONTEXTS = 32;
const contexts = new Map<string, SecureContext>();

const pem = (v: string | Buffer | undefined): string => (v === undefined ? '' : typeof v === 'string' ? v : v.toString('latin1'));

/** The process's context for this CA (system roots when absent) and client certificate and key. */
export function secureContextFor(
  ca: string | Buffer | undefined,
  cert: string | Buffer | undefined,
  key: string | Buffer | undefined,
): SecureContext {
  const id = `${pem(ca)}\0${pem(cert)}\0${pem(key)}`;
  let context = contexts.get(id);
  if (context) return context;
  context = createSecureContext({
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
  });
  if (contexts.size >= MAX_CONTEXTS) contexts.delete(contexts.keys().next().value!);
  contexts.set(id, context);
  return context;
}
