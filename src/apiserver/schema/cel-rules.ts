/**
 * The `x-kubernetes-validations` rules of one schema node, compiled: the rule program (with `self`
 * and, for transition rules, `oldSelf` declared as the node's type), its optional
 * `messageExpression` program, and the problems that make a CRD invalid — a rule or message
 * expression that does not compile or has the wrong result type, a bad `reason` or `fieldPath`.
 * For evaluation they are compiled once per node and kept, in the stored environment; a CRD write
 * compiles them in the environment of the server's minor, where only an expression the old CRD
 * already had is a stored one (so a rule keeps working after a rollback made its function too new
 * for a new rule). Costs are judged where the rule sits in the schema (cel-schema-check.ts), since
 * how many times a rule can run counts.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { compile, type CelEnvironmentVersion, type CelType, type Program } from '../cel/index.js';
import { celTypeOf } from './cel-declarations.js';
import { extensionsOf, type ValidationRule } from './extensions.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { parseRuleFieldPath } from './rule-field-path.js';

export const RULE_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'] as const;

export interface CompiledRule {
  rule: ValidationRule;
  /** Undefined when the rule did not compile (the CRD is then refused, so it never runs). */
  program?: Program;
  messageExpression?: Program;
  /** True for a transition rule: it mentions `oldSelf`. */
  usesOldSelf: boolean;
  /** `fieldPath` as path segments to append to the node's path. */
  fieldPath: string[];
  /** What is wrong with the rule, with field paths relative to the node's `x-kubernetes-validations[i]`. */
  problems: { field: string; cause: (path: string) => FieldCause }[];
}

/**
 * How the rules of one CRD write compile: in the environment of the server's `minor`, as stored
 * expressions when the old CRD had the same rule (or message expression) anywhere, as new ones otherwise.
 */
export interface RuleCompilation {
  minor: number;
  storedRules: ReadonlySet<string>;
  storedMessageExpressions: ReadonlySet<string>;
}

/** Every rule and message expression of `schemas` at any depth: what a CRD update finds already stored. */
export function preexistingExpressions(minor: number, schemas: readonly JSONSchemaProps[]): RuleCompilation {
  const storedRules = new Set<string>();
  const storedMessageExpressions = new Set<string>();
  const visit = (s: unknown): void => {
    if (s === null || typeof s !== 'object') return;
    if (Array.isArray(s)) return s.forEach(visit);
    const node = s as JSONSchemaProps;
    for (const r of extensionsOf(node)['x-kubernetes-validations'] ?? []) {
      if (typeof r.rule === 'string') storedRules.add(r.rule);
      if (typeof r.messageExpression === 'string' && r.messageExpression !== '') storedMessageExpressions.add(r.messageExpression);
    }
    [...Object.values(node.properties ?? {}), node.additionalProperties, node.items, node.allOf, node.anyOf, node.oneOf, node.not].forEach(
      visit,
    );
  };
  schemas.forEach(visit);
  return { minor, storedRules, storedMessageExpressions };
}

const compiled = new WeakMap<JSONSchemaProps, CompiledRule[]>();
const STORED = (): undefined => undefined;

/** The compiled rules of `schema` (one node), `root` when the node is the schema's root, kept for evaluation. */
export function rulesOf(schema: JSONSchemaProps, root = false): CompiledRule[] {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  const rules = compileRules(schema, root, STORED);
  compiled.set(schema, rules);
  return rules;
}

/** The rules of `schema` (one node) as one CRD write compiles them. */
export function rulesForWrite(schema: JSONSchemaProps, root: boolean, write: RuleCompilation): CompiledRule[] {
  return compileRules(schema, root, (expression, field) => {
    const stored = field === 'rule' ? write.storedRules : write.storedMessageExpressions;
    return { minor: write.minor, mode: stored.has(expression) ? 'stored' : 'new' };
  });
}

/** The environment an expression of a rule (`field` says which) compiles in; undefined for the newest stored one. */
type VersionOf = (expression: string, field: 'rule' | 'messageExpression') => CelEnvironmentVersion | undefined;

function compileRules(schema: JSONSchemaProps, root: boolean, versionOf: VersionOf): CompiledRule[] {
  return (extensionsOf(schema)['x-kubernetes-validations'] ?? []).map((r) => compileRule(r, celTypeOf(schema, root), schema, versionOf));
}

/** How kube-apiserver prints a rule inside an `Invalid value` message (Go's `%#v` of the struct). */
export function goRule(r: ValidationRule): string {
  const reason = r.reason === undefined ? '(*apiextensions.FieldValueErrorReason)(nil)' : `"${r.reason}"`;
  const optional = r.optionalOldSelf === undefined ? '(*bool)(nil)' : `${r.optionalOldSelf}`;
  return (
    `apiextensions.ValidationRule{Rule:${JSON.stringify(r.rule)}, Message:${JSON.stringify(r.message ?? '')}, ` +
    `MessageExpression:${JSON.stringify(r.messageExpression ?? '')}, Reason:${reason}, FieldPath:${JSON.stringify(r.fieldPath ?? '')}, ` +
    `OptionalOldSelf:${optional}}`
  );
}

const invalidRule =
  (r: ValidationRule, detail: string) =>
  (path: string): FieldCause => ({
    reason: 'FieldValueInvalid',
    field: path,
    message: `Invalid value: ${goRule(r)}: ${detail}`,
  });

function compileRule(rule: ValidationRule, type: CelType, schema: JSONSchemaProps, versionOf: VersionOf): CompiledRule {
  const problems: CompiledRule['problems'] = [];
  const out: CompiledRule = { rule, usesOldSelf: false, fieldPath: [], problems };
  if (typeof rule.rule !== 'string' || rule.rule.trim() === '') {
    problems.push({ field: 'rule', cause: (p) => fieldCause.required(p) });
    return out;
  }
  const oldType: CelType = rule.optionalOldSelf === true ? { kind: 'optional', of: type } : type;
  const c = compile(rule.rule, { self: type, oldSelf: oldType }, versionOf(rule.rule, 'rule'));
  if (!c.ok) problems.push({ field: 'rule', cause: invalidRule(rule, c.error) });
  else if (c.program.resultType !== 'bool' && c.program.resultType !== 'dyn') {
    problems.push({ field: 'rule', cause: invalidRule(rule, 'cel expression must evaluate to a bool') });
  } else {
    out.program = c.program;
    out.usesOldSelf = c.program.uses('oldSelf');
  }
  if (rule.optionalOldSelf === true && !out.usesOldSelf && out.program !== undefined) {
    problems.push({ field: 'optionalOldSelf', cause: (p) => fieldCause.invalid(p, true, 'may not be set if oldSelf is not used in rule') });
  }
  if (rule.message !== undefined && /[\r\n]/.test(rule.message)) {
    problems.push({ field: 'message', cause: (p) => fieldCause.invalid(p, rule.message, 'message must not contain line breaks') });
  }
  if (rule.messageExpression !== undefined) {
    const m = compile(rule.messageExpression, { self: type, oldSelf: oldType }, versionOf(rule.messageExpression, 'messageExpression'));
    if (!m.ok) {
      problems.push({ field: 'messageExpression', cause: invalidRule(rule, `messageExpression ${m.error}`) });
    } else if (m.program.resultType !== 'string' && m.program.resultType !== 'dyn') {
      problems.push({ field: 'messageExpression', cause: invalidRule(rule, 'messageExpression must evaluate to a string') });
    } else out.messageExpression = m.program;
  }
  if (rule.reason !== undefined && !(RULE_REASONS as readonly string[]).includes(rule.reason)) {
    problems.push({ field: 'reason', cause: (p) => fieldCause.notSupported(p, rule.reason, RULE_REASONS) });
  }
  if (rule.fieldPath !== undefined) {
    const parsed = parseRuleFieldPath(rule.fieldPath, schema);
    if (typeof parsed === 'string') {
      problems.push({
        field: 'fieldPath',
        cause: (p) => fieldCause.invalid(p, rule.fieldPath, `fieldPath must be a valid path: ${parsed}`),
      });
    } else out.fieldPath = parsed;
  }
  return out;
}

const withRules = new WeakMap<JSONSchemaProps, boolean>();

/** True when `schema` has a rule at any depth (kube-apiserver runs no CEL step at all for a schema without). */
export function hasRules(schema: JSONSchemaProps): boolean {
  const known = withRules.get(schema);
  if (known !== undefined) return known;
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
    ...(schema.items !== undefined && !Array.isArray(schema.items) ? [schema.items as JSONSchemaProps] : []),
  ];
  const found =
    (extensionsOf(schema)['x-kubernetes-validations'] ?? []).length > 0 ||
    children.some((c) => c !== null && typeof c === 'object' && hasRules(c));
  withRules.set(schema, found);
  return found;
}
