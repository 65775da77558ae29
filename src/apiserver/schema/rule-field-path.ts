/**
 * A rule's `fieldPath` (`.spec.replicas`, `.labels['app.kubernetes.io/name']`): a relative JSON
 * path of field selections and map keys, no list indexes, that must lead to a field the schema
 * declares. Parsed to the segments appended to the failing node's path (`[key]` for map keys,
 * as Kubernetes writes map keys in field paths).
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';

const STEP = /^(?:\.([A-Za-z_$][\w$-]*)|\[\s*'([^']*)'\s*\]|\[\s*"([^"]*)"\s*\])/;

/** The path's segments, or why it is not a valid path for `schema`. */
export function parseRuleFieldPath(path: string, schema: JSONSchemaProps): string[] | string {
  const out: string[] = [];
  let rest = path;
  let node: JSONSchemaProps | undefined = schema;
  while (rest.length > 0) {
    const m = STEP.exec(rest);
    if (m === null) return `invalid path syntax at ${JSON.stringify(rest)}`;
    rest = rest.slice(m[0].length);
    const name = (m[1] ?? m[2] ?? m[3])!;
    if (node?.properties?.[name] !== undefined) {
      node = node.properties[name];
      out.push(name);
    } else if (typeof node?.additionalProperties === 'object') {
      node = node.additionalProperties;
      out.push(`[${name}]`);
    } else return `does not refer to a valid field`;
  }
  if (out.length === 0) return 'must not be empty';
  return out;
}
