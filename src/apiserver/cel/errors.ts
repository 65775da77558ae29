/**
 * The one error a library function throws when its input is bad at run time (`index out of
 * range`, `invalid quantity`): the evaluator turns it into the rule's evaluation error, worded as
 * kube-apiserver words it, and never lets it escape as an exception.
 */

export class CelRuntimeError extends Error {
  override readonly name = 'CelRuntimeError';
}

export const celError = (message: string): CelRuntimeError => new CelRuntimeError(message);
