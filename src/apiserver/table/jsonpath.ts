/**
 * The simple JSONPath subset CRD printer columns and selectable fields use: `.a.b`, `['a.b']`,
 * `[0]`, `[*]`/`.*`, and filters on a field's value such as `[?(@.type=="Ready")]`. Evaluation
 * returns every match in document order; a path that does not resolve returns no results rather
 * than failing, because a missing field is an empty cell, not an error.
 */
import { InvalidOptionError } from '../../meta/index.js';

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'filter'; path: string[]; op: '==' | '!='; value: unknown };

/** Parses a JSONPath (an optional `{...}` wrapper and leading `$` are accepted). */
export function parseJsonPath(expression: string): Step[] {
  let s = expression.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  if (s.startsWith('$')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new InvalidOptionError('jsonPath', `${why} in ${JSON.stringify(expression)}`);
  };
  while (i < s.length) {
    if (s[i] === '.') {
      i++;
      if (s[i] === '*') {
        steps.push({ kind: 'wildcard' });
        i++;
        continue;
      }
      const m = /^[^.[\]]+/.exec(s.slice(i));
      if (!m) return fail('expected a field name');
      steps.push({ kind: 'field', name: m[0] });
      i += m[0].length;
    } else if (s[i] === '[') {
      const close = findClose(s, i);
      if (close < 0) return fail('unterminated [');
      const inner = s.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') steps.push({ kind: 'wildcard' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^(['"]).*\1$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else if (inner.startsWith('?(') && inner.endsWith(')')) steps.push(parseFilter(inner.slice(2, -1).trim(), fail));
      else return fail(`unsupported subscript [${inner}]`);
    } else {
      return fail(`unexpected ${JSON.stringify(s[i])}`);
    }
  }
  return steps;
}

function findClose(s: string, open: number): number {
  let quote: string | undefined;
  for (let j = open + 1; j < s.length; j++) {
    const c = s[j];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ']') return j;
  }
  return -1;
}

function parseFilter(filter: string, fail: (why: string) => never): Step {
  const m = /^@((?:\.[^.=!\s]+)+)\s*(==|!=)\s*(.+)$/.exec(filter);
  if (!m) return fail(`unsupported filter ${filter}`);
  const raw = (m[3] as string).trim();
  let value: unknown;
  if (/^(['"]).*\1$/.test(raw)) value = raw.slice(1, -1);
  else if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (!Number.isNaN(Number(raw))) value = Number(raw);
  else return fail(`unsupported filter value ${raw}`);
  return { kind: 'filter', path: (m[1] as string).slice(1).split('.'), op: m[2] as '==' | '!=', value };
}

/** Every value `steps` reaches in `root`, in document order. */
export function evaluateJsonPath(root: unknown, steps: readonly Step[]): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (step.kind === 'field') {
        if (isObject(v) && Object.hasOwn(v, step.name)) next.push(v[step.name]);
      } else if (step.kind === 'index') {
        if (Array.isArray(v)) {
          const at = step.index < 0 ? v.length + step.index : step.index;
          if (at >= 0 && at < v.length) next.push(v[at]);
        }
      } else if (step.kind === 'wildcard') {
        if (Array.isArray(v)) next.push(...v);
        else if (isObject(v)) next.push(...Object.values(v));
      } else {
        const candidates = Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [];
        for (const c of candidates) {
          const got = evaluateJsonPath(
            c,
            step.path.map((name) => ({ kind: 'field', name }) as const),
          );
          const equal = got.length > 0 && got[0] === step.value;
          if (step.op === '==' ? equal : !equal) next.push(c);
        }
      }
    }
    current = next;
  }
  return current;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
