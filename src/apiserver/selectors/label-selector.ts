/**
 * The `labelSelector` query parameter: parsed once into requirements, then matched against objects'
 * labels. Grammar and meaning follow apimachinery's `labels.Parse` (`=`, `==`, `!=`, `in`, `notin`,
 * existence, `!key`, `>`/`<` on integers); keys and values are validated like the real server.
 * Invariant: an empty selector matches everything; a parse error is a 400 before anything is read.
 */
import { badRequest } from '../status.js';
import { labelValueError, qualifiedNameError } from '../validation.js';

type Op = 'eq' | 'neq' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';
interface Requirement {
  key: string;
  op: Op;
  values: string[];
}

export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean;

export const matchAllLabels: LabelMatcher = () => true;

/** Parses a selector string; throws a 400 `ApiStatusError` on bad input. */
export function parseLabelSelector(text: string): LabelMatcher {
  const reqs = parseRequirements(text);
  if (reqs.length === 0) return matchAllLabels;
  return (labels) => reqs.every((r) => matches(r, labels ?? {}));
}

function matches(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case 'eq':
    case 'in':
      return has && r.values.includes(v!);
    case 'neq':
    case 'notin':
      return !has || !r.values.includes(v!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(v!)) return false;
      const n = Number(v);
      const bound = Number(r.values[0]);
      return r.op === 'gt' ? n > bound : n < bound;
    }
  }
}

const fail = (text: string, why: string): never => {
  throw badRequest(`unable to parse requirement: ${why}`.replace('%s', text));
};

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts;
}

function parseRequirements(text: string): Requirement[] {
  if (text.trim() === '') return [];
  const out: Requirement[] = [];
  for (const raw of splitTopLevel(text)) {
    const part = raw.trim();
    if (!part) fail(text, 'found \'\', expected: !, identifier, or \'end of string\'');
    out.push(parseOne(part, text));
  }
  return out;
}

function checkKey(key: string): void {
  const err = qualifiedNameError(key);
  if (err) throw badRequest(`unable to parse requirement: values[0][${key}]: Invalid value: ${JSON.stringify(key)}: ${err}`);
}

function checkValue(key: string, value: string): void {
  const err = labelValueError(value);
  if (err) throw badRequest(`unable to parse requirement: values[0][${key}]: Invalid value: ${JSON.stringify(value)}: ${err}`);
}

function parseOne(part: string, text: string): Requirement {
  if (part.startsWith('!')) {
    const key = part.slice(1).trim();
    checkKey(key);
    return { key, op: '!', values: [] };
  }
  const set = /^([^\s!=<>(),]+)\s+(in|notin)\s*\((.*)\)$/.exec(part);
  if (set) {
    const key = set[1]!;
    checkKey(key);
    const values = set[3]!.split(',').map((s) => s.trim());
    for (const v of values) checkValue(key, v);
    return { key, op: set[2] === 'in' ? 'in' : 'notin', values };
  }
  const cmp = /^([^\s!=<>(),]+)\s*(==|=|!=|>|<)\s*([^\s,()]*)$/.exec(part);
  if (cmp) {
    const key = cmp[1]!;
    const value = cmp[3]!;
    checkKey(key);
    if (cmp[2] === '>' || cmp[2] === '<') {
      if (!/^-?\d+$/.test(value)) throw badRequest(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`);
      return { key, op: cmp[2] === '>' ? 'gt' : 'lt', values: [value] };
    }
    checkValue(key, value);
    return { key, op: cmp[2] === '!=' ? 'neq' : 'eq', values: [value] };
  }
  if (/^[^\s!=<>(),]+$/.test(part)) {
    checkKey(part);
    return { key: part, op: 'exists', values: [] };
  }
  return fail(text, `found '${part}', expected: identifier`);
}
