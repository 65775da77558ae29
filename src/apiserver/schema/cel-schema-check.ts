/**
 * What a CRD's schema must satisfy for its CEL rules, checked when the CRD is written, as
 * apiextensions-apiserver checks it: every rule compiles in the environment of the server's minor
 * (new rules at its compatibility version, rules the old CRD had as stored ones); transition
 * rules sit only where an old value can be found (no `oldSelf` under a list that is not
 * `x-kubernetes-list-type: map`); each rule's estimated cost, times how many times it can run,
 * stays within the per-rule limit, and all of them together within the per-CRD limit. How many
 * times a rule runs is the product of the enclosing lists' `maxItems` and maps' `maxProperties`;
 * under a list or map without one, it is how many of the rule's values a 3 MiB request could hold.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import {
  costErrorMessage,
  MAX_REQUEST_SIZE_BYTES,
  minSerializedSize,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
} from '../cel/index.js';
import { celTypeOf } from './cel-declarations.js';
import { rulesForWrite, type RuleCompilation } from './cel-rules.js';
import { extensionsOf } from './extensions.js';
import { childPath, fieldCause, indexPath, type FieldCause } from '../ground/index.js';

/** Rules that cost less than this share of the CRD limit are never named as contributing to it. */
const NOTABLE_COST = STATIC_ESTIMATED_CRD_COST_LIMIT / 100;
/** How many of the costliest rules a refusal over the CRD limit names. */
const MOST_EXPENSIVE_NAMED = 4;

interface Walk {
  write: RuleCompilation;
  causes: FieldCause[];
  total: number;
  mostExpensive: { path: string; cost: number }[];
}

/**
 * The problems with the CEL rules of `schema` compiled as `write` says, with field paths under
 * `path` (the schema's own path in the CRD).
 */
export function celSchemaErrors(schema: JSONSchemaProps, path: string, write: RuleCompilation): FieldCause[] {
  const walk: Walk = { write, causes: [], total: 0, mostExpensive: [] };
  visit(schema, path, walk, { root: true, cardinality: 1, uncorrelatableAt: undefined });
  if (walk.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of walk.mostExpensive) {
      walk.causes.push(
        fieldCause.forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'),
      );
    }
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
  /** How many times a rule here can run, or undefined when an enclosing list or map has no bound. */
  cardinality: number | undefined;
  /** The path of the first enclosing list whose items cannot be matched to old items, if any. */
  uncorrelatableAt: string | undefined;
}

function observe(walk: Walk, path: string, cost: number): void {
  walk.total += cost;
  if (cost < NOTABLE_COST) return;
  walk.mostExpensive.push({ path, cost });
  walk.mostExpensive.sort((a, b) => b.cost - a.cost);
  walk.mostExpensive.length = Math.min(walk.mostExpensive.length, MOST_EXPENSIVE_NAMED);
}

/** How many values of `s` fit in one request: the bound on how often a rule under an unbounded list or map runs. */
const perRequest = (s: JSONSchemaProps, root: boolean): number =>
  Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize(celTypeOf(s, root)) + 1));

/** How many children of `s` one value can hold: 1 for an object's property, else `maxItems`/`maxProperties` (undefined when unbounded). */
function childCount(s: JSONSchemaProps): number | undefined {
  if (s.type === 'array') return s.maxItems === undefined ? undefined : Math.max(0, s.maxItems);
  if (s.type === 'object' && s.additionalProperties !== undefined && s.additionalProperties !== false) {
    return s.maxProperties === undefined ? undefined : Math.max(0, s.maxProperties);
  }
  return 1;
}

function visit(s: JSONSchemaProps, path: string, walk: Walk, where: Where): void {
  if (s === null || typeof s !== 'object') return;
  const rules = rulesForWrite(s, where.root, walk.write);
  const runs = rules.length === 0 ? 1 : (where.cardinality ?? perRequest(s, where.root));
  rules.forEach((r, i) => {
    const rulePath = indexPath(childPath(path, 'x-kubernetes-validations'), i);
    if (r.program !== undefined) {
      const cost = r.program.estimatedCost === 0 ? 0 : Math.min(r.program.estimatedCost * runs, 2 ** 64);
      if (cost > STATIC_ESTIMATED_COST_LIMIT) {
        walk.causes.push(
          fieldCause.forbidden(childPath(rulePath, 'rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)),
        );
      }
      observe(walk, childPath(rulePath, 'rule'), cost);
    }
    for (const p of r.problems) walk.causes.push(p.cause(childPath(rulePath, p.field)));
    if (r.messageExpression !== undefined) {
      const cost = r.messageExpression.estimatedCost;
      if (cost > STATIC_ESTIMATED_COST_LIMIT) {
        walk.causes.push(
          fieldCause.forbidden(
            childPath(rulePath, 'messageExpression'),
            costErrorMessage('estimated messageExpression cost', cost, STATIC_ESTIMATED_COST_LIMIT),
          ),
        );
      }
      observe(walk, childPath(rulePath, 'messageExpression'), cost);
    }
    if (r.usesOldSelf && where.uncorrelatableAt !== undefined) {
      walk.causes.push(
        fieldCause.invalid(
          childPath(rulePath, 'rule'),
          r.rule.rule,
          `oldSelf cannot be used on the uncorrelatable portion of the schema within ${where.uncorrelatableAt}`,
        ),
      );
    }
  });
  const count = childCount(s);
  const cardinality = where.cardinality === undefined || count === undefined ? undefined : where.cardinality * count;
  const next = { root: false, cardinality, uncorrelatableAt: where.uncorrelatableAt };
  for (const [name, child] of Object.entries(s.properties ?? {})) visit(child, `${path}.properties[${name}]`, walk, next);
  if (typeof s.additionalProperties === 'object') visit(s.additionalProperties, childPath(path, 'additionalProperties'), walk, next);
  if (s.items !== undefined && !Array.isArray(s.items)) {
    const correlatable = extensionsOf(s)['x-kubernetes-list-type'] === 'map';
    visit(s.items as JSONSchemaProps, childPath(path, 'items'), walk, {
      ...next,
      uncorrelatableAt: where.uncorrelatableAt ?? (correlatable ? undefined : childPath(path, 'items')),
    });
  }
}
