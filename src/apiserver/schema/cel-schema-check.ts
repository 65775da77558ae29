/**
 * What a CRD's schema must satisfy for its CEL rules, checked when the CRD is written: every rule
 * compiles within its cost limit (the problems of `rulesOf`), transition rules sit only where an
 * old value can be found (no `oldSelf` under a list that is not `x-kubernetes-list-type: map`),
 * and the estimated cost of all rules together — each rule's cost times how many times it can
 * run (the product of the enclosing lists' and maps' sizes) — stays within the per-CRD limit.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { costErrorMessage, maxElements, STATIC_ESTIMATED_CRD_COST_LIMIT } from '../cel/index.js';
import { celTypeOf } from './cel-declarations.js';
import { rulesOf } from './cel-rules.js';
import { extensionsOf } from './extensions.js';
import { childPath, fieldCause, indexPath, type FieldCause } from '../ground/index.js';

interface Walk {
  causes: FieldCause[];
  total: number;
}

/** The problems with the CEL rules of `schema`, with field paths under `path` (the schema's own path in the CRD). */
export function celSchemaErrors(schema: JSONSchemaProps, path: string): FieldCause[] {
  const walk: Walk = { causes: [], total: 0 };
  visit(schema, path, walk, { root: true, cardinality: 1, uncorrelatableAt: undefined });
  if (walk.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    const message = costErrorMessage(
      'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
      walk.total,
      STATIC_ESTIMATED_CRD_COST_LIMIT,
    );
    walk.causes.push(fieldCause.forbidden(path, message));
  }
  return walk.causes;
}

interface Where {
  root: boolean;
  cardinality: number;
  /** The path of the first enclosing list whose items cannot be matched to old items, if any. */
  uncorrelatableAt: string | undefined;
}

function visit(s: JSONSchemaProps, path: string, walk: Walk, where: Where): void {
  if (s === null || typeof s !== 'object') return;
  rulesOf(s, where.root).forEach((r, i) => {
    const rulePath = indexPath(childPath(path, 'x-kubernetes-validations'), i);
    for (const p of r.problems) walk.causes.push(p.cause(childPath(rulePath, p.field)));
    if (r.usesOldSelf && where.uncorrelatableAt !== undefined) {
      walk.causes.push(
        fieldCause.forbidden(
          childPath(rulePath, 'rule'),
          `oldSelf cannot be used on the uncorrelatable portion of the schema within ${where.uncorrelatableAt}`,
        ),
      );
    }
    walk.total += (r.program?.estimatedCost ?? 0) * where.cardinality;
  });
  const next = { root: false, cardinality: where.cardinality, uncorrelatableAt: where.uncorrelatableAt };
  for (const [name, child] of Object.entries(s.properties ?? {})) visit(child, `${path}.properties[${name}]`, walk, next);
  if (typeof s.additionalProperties === 'object') {
    visit(s.additionalProperties, childPath(path, 'additionalProperties'), walk, {
      ...next,
      cardinality: where.cardinality * maxElements(celTypeOf(s)),
    });
  }
  if (s.items !== undefined && !Array.isArray(s.items)) {
    const correlatable = extensionsOf(s)['x-kubernetes-list-type'] === 'map';
    visit(s.items as JSONSchemaProps, childPath(path, 'items'), walk, {
      root: false,
      cardinality: where.cardinality * maxElements(celTypeOf(s)),
      uncorrelatableAt: where.uncorrelatableAt ?? (correlatable ? undefined : childPath(path, 'items')),
    });
  }
}
