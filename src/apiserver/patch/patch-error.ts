/**
 * The one error the patch functions throw: a patch that cannot be decoded or applied. It carries
 * the HTTP code the real server answers with (400 for a patch that is not well formed, 422 for a
 * well-formed patch that does not apply to the object), so the REST handler turns it into a
 * `Status` without having to guess.
 */
import { ConvergeError } from '../../meta/index.js';

export type PatchErrorHttpCode = 400 | 422;

export class PatchError extends ConvergeError {
  readonly code = 'CONVERGE_PATCH';
  override readonly name = 'PatchError';
  constructor(
    readonly httpCode: PatchErrorHttpCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
