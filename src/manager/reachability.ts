/**
 * Says in the log, at once, that the API server cannot be reached, naming its URL and the error, and
 * that it can again once a request gets an answer. Without it an operator started against a server
 * that is down is silent while its client retries and its informers back off. Invariant: one warning
 * per outage (not one per retry), and one line when it ends.
 */
import type { RequestMetric } from '../client/internal.js';
import type { Logger } from '../meta/index.js';

/** The `onRequest` hook that tracks whether `server` answers, logging each change on `logger`. */
export function reachabilityReporter(server: string, logger: Logger): (m: RequestMetric) => void {
  let down = false;
  return (m) => {
    if (m.code === '<error>' && m.error !== undefined && !down) {
      down = true;
      const error = describe(m.error);
      logger.warn({ server, error }, `cannot reach the API server at ${server}: ${error}; retrying with backoff`);
    } else if (m.code !== '<error>' && down) {
      down = false;
      logger.info({ server }, `the API server at ${server} answers again`);
    }
  };
}

/** `connect ECONNREFUSED 127.0.0.1:6443`; an AggregateError (every address of a name refused) has no message, only a code. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.message !== '') return err.message;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : err.name;
}
