/**
 * controllerutil's errors, each with its code from the catalogue in `src/meta/errors.ts`.
 * Callers branch on `code`, never on the message.
 */
import { ConvergeError, type OwnerReference } from '../../meta/index.js';

/** `setControllerReference` found a controller reference to a different owner already in place. */
export class AlreadyOwnedError extends ConvergeError {
  readonly code = 'CONVERGE_ALREADY_OWNED';
  override readonly name = 'AlreadyOwnedError';
  constructor(
    readonly object: { namespace?: string | undefined; name: string },
    readonly owner: OwnerReference,
  ) {
    const key = object.namespace ? `${object.namespace}/${object.name}` : object.name;
    super(`Object ${key} is already owned by another ${owner.kind} controller ${owner.name}`);
  }
}
