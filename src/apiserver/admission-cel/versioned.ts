/**
 * A write as one webhook or policy sees it, kube-apiserver's `VersionedAttributes`: the request's
 * attributes, the resource the webhook's or policy's rule matched, and the objects in that resource's
 * version. Invariant: for a rule that matched the request's own resource the objects are the
 * request's, untouched; otherwise they are converted copies.
 */
import type { KubeObject } from '../../meta/index.js';
import type { Attributes } from './attributes.js';

/**
 * The resource a rule matched: the request's own, or an equivalent one, with the conversions to and
 * from it (admission's matcher finds it; here because the CEL `request` names it).
 */
export interface Matched {
  group: string;
  version: string;
  resource: string;
  kind: string;
  /** The request's object as the matched version serves it. */
  toMatched(o: KubeObject): KubeObject;
  /** An object of the matched version back in the request's version. */
  fromMatched(o: KubeObject): KubeObject;
}

export interface Versioned {
  attributes: Attributes;
  /** The resource the rule matched, and how objects go to and from its version. */
  as: Matched;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
}

/** `a` as the rule that matched it as `as` sees it, `object` (default: the attributes') being the object it is given. */
export function versioned(a: Attributes, as: Matched, object = a.object): Versioned {
  return {
    attributes: a,
    as,
    object: object && as.toMatched(object),
    oldObject: a.oldObject && as.toMatched(a.oldObject),
  };
}
