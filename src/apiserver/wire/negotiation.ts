/**
 * Content negotiation for responses: reads `Accept` the way kube-apiserver does and picks one of the
 * output forms it serves — plain JSON objects, `Table` (`as=Table;g=meta.k8s.io;v=v1|v1beta1`), or
 * `PartialObjectMetadata(List)`. Clients that prefer protobuf always list JSON too; an Accept header
 * naming nothing servable is a 406. Invariant: the first acceptable media range wins (client order).
 */
import { badRequest, notAcceptable } from '../ground/index.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export type OutputForm = { kind: 'json' } | { kind: 'table'; includeObject: IncludeObject } | { kind: 'partial' };

export interface MediaRange {
  type: string;
  params: Record<string, string>;
}

export function parseAccept(accept: string | undefined): MediaRange[] {
  if (!accept) return [];
  return accept.split(',').map((part) => {
    const [type = '', ...rest] = part.split(';').map((s) => s.trim());
    const params: Record<string, string> = {};
    for (const p of rest) {
      const i = p.indexOf('=');
      if (i > 0) params[p.slice(0, i).trim()] = p.slice(i + 1).trim();
    }
    return { type: type.toLowerCase(), params };
  });
}

/** What a 406 lists, as kube-apiserver lists its serializers for objects and lists. */
const SERVED = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function isJsonLike(t: string): boolean {
  return t === 'application/json' || t === '*/*' || t === 'application/*';
}

/** Picks the output form for an object or list response. */
export function negotiateOutput(accept: string | undefined, includeObjectParam: string | null): OutputForm {
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return { kind: 'json' };
  for (const r of ranges) {
    if (!isJsonLike(r.type)) continue;
    const as = r.params.as;
    if (as === undefined) return { kind: 'json' };
    if (r.params.g !== 'meta.k8s.io') continue;
    if (as === 'Table' && (r.params.v === 'v1' || r.params.v === 'v1beta1')) {
      const inc = includeObjectParam ?? 'Metadata';
      if (inc !== 'None' && inc !== 'Metadata' && inc !== 'Object') {
        throw badRequest(`includeObject: Unsupported value: "${inc}": supported values: "Metadata", "None", "Object"`);
      }
      return { kind: 'table', includeObject: inc };
    }
    if ((as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') && (r.params.v === 'v1' || r.params.v === 'v1beta1')) {
      return { kind: 'partial' };
    }
  }
  throw notAcceptable(SERVED);
}

/** True when the client asks for aggregated discovery (`as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2`) before any plain JSON. */
export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
  for (const r of parseAccept(accept)) {
    if (!isJsonLike(r.type)) continue;
    if (r.params.as === 'APIGroupDiscoveryList' && r.params.g === 'apidiscovery.k8s.io' && r.params.v === 'v2') return true;
    if (r.params.as === undefined) return false;
  }
  return false;
}
