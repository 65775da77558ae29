/**
 * A validator's refusal: the Status the API server passes on to the client (reason, message, the
 * field causes). Invariant: a denial is a value a validator returns, never a throw, so that a bug
 * (a throw, answered 500) can never be mistaken for a decision to refuse.
 */
import type { Status } from '../meta/index.js';

/** One field-level cause of a denial, as in a Status's `details.causes`. */
export interface DenialCause {
  /** Machine-readable kind of the cause, e.g. `FieldValueInvalid`, `FieldValueRequired`. */
  reason?: string;
  message: string;
  /** The field path, e.g. `spec.image`. */
  field?: string;
}

/** Why a request is refused. `reason` defaults to `Invalid` (422) with causes, `Forbidden` (403) without. */
export interface Denial {
  message: string;
  reason?: string;
  code?: number;
  causes?: readonly DenialCause[];
}

/** A validator's answer: warnings for the client, and a denial when the request is refused. */
export interface ValidationResult {
  warnings?: readonly string[];
  denied?: Denial;
}

/** A result that refuses the request: `return deny('image needs a tag', { causes: [...] })`. */
export function deny(message: string, options: Omit<Denial, 'message'> & { warnings?: readonly string[] } = {}): ValidationResult {
  const { warnings, ...rest } = options;
  return { denied: { message, ...rest }, ...(warnings ? { warnings } : {}) };
}

/**
 * The Status a denial becomes in the admission response. `target` names the object: with causes it
 * goes into `details` as the API server's own validation errors carry it, so kubectl prints
 * `The WebApp "shop" is invalid: spec.image: …`.
 */
export function denialStatus(d: Denial, target?: { group: string; kind: string; name?: string | undefined }): Status {
  const reason = d.reason ?? (d.causes?.length ? 'Invalid' : 'Forbidden');
  const code = d.code ?? (reason === 'Invalid' ? 422 : 403);
  return {
    metadata: {},
    status: 'Failure',
    code,
    reason,
    message: d.message,
    ...(d.causes?.length
      ? {
          details: {
            ...(target ? { group: target.group, kind: target.kind, name: target.name ?? '' } : {}),
            causes: d.causes.map((c) => ({ ...c })),
          },
        }
      : {}),
  };
}
