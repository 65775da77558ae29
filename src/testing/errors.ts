/**
 * Errors of the testing layer. A `CrdNotServedError` means a CRD given to `TestEnv` was created but
 * did not become usable in time; it names the CRD and what was still missing, with the last
 * observation as `cause`. An `EventuallyTimeoutError` means an `eventually` check never passed.
 */
import { ConvergeError } from '../meta/index.js';

/** A CRD was created but did not become usable in time; names the CRD and what was still missing. */
export class CrdNotServedError extends ConvergeError {
  readonly code = 'CONVERGE_CRD_NOT_SERVED';
  override readonly name = 'CrdNotServedError';
  constructor(
    readonly crd: string,
    readonly missing: string,
    timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`CRD ${crd} was not served within ${timeoutMs} ms: still missing ${missing}`, options);
  }
}

/** Thrown when `eventually` runs out of time; `cause` is the last error, `lastValue` the last result. */
export class EventuallyTimeoutError extends ConvergeError {
  readonly code = 'CONVERGE_EVENTUALLY_TIMEOUT';
  override readonly name = 'EventuallyTimeoutError';
  constructor(
    message: string,
    readonly attempts: number,
    readonly lastValue: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
