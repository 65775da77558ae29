/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1),
 * MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding (v1, served from 1.36 on):
 * cluster-scoped, generation-tracked, the validating policy with a status subresource. Creates and
 * updates get kube-apiserver's defaults (failurePolicy Fail, matchPolicy Equivalent, empty
 * selectors, scope `*`, reinvocationPolicy Never) and its checks, including compiling every CEL
 * expression: one that does not compile makes the object invalid with the compiler's message, so
 * nothing stored fails to compile at admission. An expression is compiled in the CEL environment of
 * the server's minor: a new one at its compatibility version, one the old object already had in the
 * same kind of field (an update that kept it there) as a stored one.
 */
import type { KubeObject } from '../../meta/index.js';
import { compileAdmissionExpression, compileMutationExpression } from '../admission-cel/index.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { ageColumn, cells, column, nameColumn, type TablePrinter } from '../table/index.js';
import { Strategy, builtinVersion, type VersionSpec, type WriteContext } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';

type Obj = Record<string, unknown>;
const { at, list, name, age } = cells;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const NOT_FOUND_ACTIONS = ['Allow', 'Deny'];
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

/** Defaults of a `MatchResources` (the policy's matchConstraints, a binding's matchResources). */
function defaultMatchResources(m: Obj): void {
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  m.matchPolicy ??= 'Equivalent';
  for (const rule of [...list(m.resourceRules), ...list(m.excludeResourceRules)]) rule.scope ??= '*';
}

function matchResourcesCauses(m: Obj, field: string, requireRules: boolean): FieldCause[] {
  const out: FieldCause[] = [];
  if (requireRules && list(m.resourceRules).length === 0) out.push(fieldCause.required(`${field}.resourceRules`));
  if (!MATCH_POLICIES.includes(String(m.matchPolicy)))
    out.push(fieldCause.notSupported(`${field}.matchPolicy`, m.matchPolicy, MATCH_POLICIES));
  for (const key of ['resourceRules', 'excludeResourceRules'] as const) {
    list(m[key]).forEach((rule, i) => {
      const f = `${field}.${key}[${i}]`;
      for (const part of ['operations', 'apiGroups', 'apiVersions', 'resources'] as const) {
        if (!Array.isArray(rule[part]) || rule[part].length === 0) out.push(fieldCause.required(`${f}.${part}`));
      }
      for (const [j, op] of (Array.isArray(rule.operations) ? rule.operations : []).entries()) {
        if (!OPERATIONS.includes(String(op))) out.push(fieldCause.notSupported(`${f}.operations[${j}]`, op, OPERATIONS));
      }
      if (!SCOPES.includes(String(rule.scope))) out.push(fieldCause.notSupported(`${f}.scope`, rule.scope, SCOPES));
    });
  }
  return out;
}

/**
 * The expressions of an old policy that an update may keep as stored ones, by the kind of field that
 * held them, as kube-apiserver's `preexistingExpressions` groups them: an expression compiles as
 * stored only in a field of the kind that already held it, so one moved to another kind of field
 * compiles as new. Two quirks are kube's own: a variable counts as stored when it equals an old
 * validation's expression (old variables are not collected), and a JSONPatch mutation when it equals
 * an old ApplyConfiguration's (old JSONPatch expressions are collected but never consulted).
 */
interface StoredExpressions {
  matchConditions: ReadonlySet<string>;
  validations: ReadonlySet<string>;
  messageExpressions: ReadonlySet<string>;
  auditAnnotations: ReadonlySet<string>;
  applyConfigurations: ReadonlySet<string>;
}

/** How one write compiles its expressions: at the server's minor, those the old object had in the same kind of field as stored ones. */
interface ExpressionCompilation {
  minor: number;
  stored: StoredExpressions;
}

const strings = (values: unknown[]): Set<string> => new Set(values.filter((v): v is string => typeof v === 'string'));

/** The expressions of a stored policy's spec, by kind of field (kube's `find…PolicyPreexistingExpressions`). */
function storedExpressionsOf(spec: unknown): StoredExpressions {
  const s = isObj(spec) ? spec : {};
  const validations = list(s.validations);
  return {
    matchConditions: strings(list(s.matchConditions).map((c) => c.expression)),
    validations: strings(validations.map((v) => v.expression)),
    messageExpressions: strings(validations.map((v) => v.messageExpression).filter((e) => e !== '')),
    auditAnnotations: strings(list(s.auditAnnotations).map((a) => a.valueExpression)),
    applyConfigurations: strings(list(s.mutations).map((m) => (isObj(m.applyConfiguration) ? m.applyConfiguration.expression : undefined))),
  };
}

const NOTHING_STORED: StoredExpressions = {
  matchConditions: new Set(),
  validations: new Set(),
  messageExpressions: new Set(),
  auditAnnotations: new Set(),
  applyConfigurations: new Set(),
};

/**
 * How one field's expression compiles: the write's minor and the old expressions of its kind of field.
 * A match condition is looked up trimmed (kube compiles and looks up the trimmed condition), every
 * other expression as written.
 */
interface FieldCompilation {
  minor: number;
  stored: ReadonlySet<string>;
  trimmed: boolean;
}

const storedIn = (write: ExpressionCompilation, kind: keyof StoredExpressions, trimmed = false): FieldCompilation => ({
  minor: write.minor,
  stored: write.stored[kind],
  trimmed,
});

function compileCauses(
  expression: unknown,
  field: string,
  hasParams: boolean,
  variables: string[],
  write: FieldCompilation,
  compileOne = compileAdmissionExpression,
): FieldCause[] {
  if (typeof expression !== 'string' || expression.trim() === '') return [fieldCause.required(field, 'expression is not specified')];
  const stored = write.stored.has(write.trimmed ? expression.trim() : expression);
  const version = { minor: write.minor, mode: stored ? ('stored' as const) : ('new' as const) };
  const error = compileOne(expression, { hasParams, variables, version });
  return error === undefined ? [] : [fieldCause.invalid(field, expression, error)];
}

/**
 * The checks both policy kinds share: failurePolicy, matchConstraints, paramKind, match conditions
 * and variables; answers the causes and the variables declared, for the expressions after them.
 */
function commonPolicyCauses(spec: Obj, out: FieldCause[], write: ExpressionCompilation): string[] {
  if (!FAILURE_POLICIES.includes(String(spec.failurePolicy)))
    out.push(fieldCause.notSupported('spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES));
  if (!isObj(spec.matchConstraints)) out.push(fieldCause.required('spec.matchConstraints'));
  else out.push(...matchResourcesCauses(spec.matchConstraints, 'spec.matchConstraints', true));
  const paramKind = spec.paramKind;
  if (paramKind !== undefined) {
    if (!isObj(paramKind) || typeof paramKind.apiVersion !== 'string' || paramKind.apiVersion === '')
      out.push(fieldCause.required('spec.paramKind.apiVersion'));
    if (!isObj(paramKind) || typeof paramKind.kind !== 'string' || paramKind.kind === '')
      out.push(fieldCause.required('spec.paramKind.kind'));
  }
  const hasParams = paramKind !== undefined;
  const seenConditions = new Set<string>();
  list(spec.matchConditions).forEach((c, i) => {
    const f = `spec.matchConditions[${i}]`;
    if (typeof c.name !== 'string' || c.name === '') out.push(fieldCause.required(`${f}.name`));
    else if (seenConditions.has(c.name)) out.push(fieldCause.duplicate(`${f}.name`, c.name));
    else seenConditions.add(c.name);
    out.push(...compileCauses(c.expression, `${f}.expression`, hasParams, [], storedIn(write, 'matchConditions', true)));
  });
  const variables: string[] = [];
  list(spec.variables).forEach((v, i) => {
    const f = `spec.variables[${i}]`;
    if (typeof v.name !== 'string' || !/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(v.name))
      out.push(fieldCause.invalid(`${f}.name`, v.name, 'name is not a valid CEL identifier'));
    out.push(...compileCauses(v.expression, `${f}.expression`, hasParams, variables, storedIn(write, 'validations')));
    if (typeof v.name === 'string') variables.push(v.name);
  });
  return variables;
}

/** The checks of kube-apiserver's `ValidateValidatingAdmissionPolicy`. */
function policyCauses(obj: KubeObject, write: ExpressionCompilation): FieldCause[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const out: FieldCause[] = [];
  const variables = commonPolicyCauses(spec, out, write);
  const hasParams = spec.paramKind !== undefined;
  const validations = list(spec.validations);
  const audits = list(spec.auditAnnotations);
  if (validations.length === 0 && audits.length === 0)
    out.push(fieldCause.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
  validations.forEach((v, i) => {
    const f = `spec.validations[${i}]`;
    out.push(...compileCauses(v.expression, `${f}.expression`, hasParams, variables, storedIn(write, 'validations')));
    if (typeof v.message === 'string') {
      const m = v.message.trim();
      if (m === '') out.push(fieldCause.invalid(`${f}.message`, v.message, 'message must be non-empty if specified'));
      else if (m.includes('\n')) out.push(fieldCause.invalid(`${f}.message`, v.message, 'message must be a single line'));
      else if (m.length > 1024) out.push(fieldCause.invalid(`${f}.message`, v.message, 'must have a maximum length of 1024 characters'));
    }
    if (v.messageExpression !== undefined)
      out.push(
        ...compileCauses(v.messageExpression, `${f}.messageExpression`, hasParams, variables, storedIn(write, 'messageExpressions')),
      );
    if (v.reason !== undefined && !REASONS.includes(String(v.reason))) out.push(fieldCause.notSupported(`${f}.reason`, v.reason, REASONS));
  });
  const seenKeys = new Set<string>();
  audits.forEach((a, i) => {
    const f = `spec.auditAnnotations[${i}]`;
    if (typeof a.key !== 'string' || a.key === '') out.push(fieldCause.required(`${f}.key`));
    else if (seenKeys.has(a.key)) out.push(fieldCause.duplicate(`${f}.key`, a.key));
    else seenKeys.add(a.key);
    out.push(...compileCauses(a.valueExpression, `${f}.valueExpression`, hasParams, variables, storedIn(write, 'auditAnnotations')));
  });
  return out;
}

/** The checks of kube-apiserver's `ValidateMutatingAdmissionPolicy`. */
function mutatingPolicyCauses(obj: KubeObject, write: ExpressionCompilation): FieldCause[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const out: FieldCause[] = [];
  const variables = commonPolicyCauses(spec, out, write);
  const hasParams = spec.paramKind !== undefined;
  const mutations = list(spec.mutations);
  if (mutations.length === 0) out.push(fieldCause.required('spec.mutations', 'mutations must contain at least one item'));
  mutations.forEach((m, i) => {
    const f = `spec.mutations[${i}]`;
    if (m.patchType === undefined) out.push(fieldCause.required(`${f}.patchType`));
    else if (!PATCH_TYPES.includes(String(m.patchType))) out.push(fieldCause.notSupported(`${f}.patchType`, m.patchType, PATCH_TYPES));
    for (const [type, key] of [
      ['ApplyConfiguration', 'applyConfiguration'],
      ['JSONPatch', 'jsonPatch'],
    ] as const) {
      if (m.patchType === type) {
        if (!isObj(m[key])) out.push(fieldCause.required(`${f}.${key}`, `${key} required when patchType is ${type}`));
        else
          out.push(
            ...compileCauses(
              m[key].expression,
              `${f}.${key}.expression`,
              hasParams,
              variables,
              storedIn(write, 'applyConfigurations'),
              compileMutationExpression,
            ),
          );
      } else if (m[key] !== undefined) out.push(fieldCause.forbidden(`${f}.${key}`, `must not be specified when patchType is not ${type}`));
    }
  });
  if (!REINVOCATION_POLICIES.includes(String(spec.reinvocationPolicy)))
    out.push(fieldCause.notSupported('spec.reinvocationPolicy', spec.reinvocationPolicy, REINVOCATION_POLICIES));
  return out;
}

/**
 * The checks of kube-apiserver's `ValidateValidatingAdmissionPolicyBinding` and, without
 * `validationActions` (a mutating binding has none), `ValidateMutatingAdmissionPolicyBinding`:
 * policyName, paramRef and matchResources.
 */
function bindingCauses(obj: KubeObject, { validationActions }: { validationActions: boolean }): FieldCause[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const out: FieldCause[] = [];
  if (typeof spec.policyName !== 'string' || spec.policyName === '') out.push(fieldCause.required('spec.policyName'));
  const ref = spec.paramRef;
  if (isObj(ref)) {
    if ((ref.name === undefined) === (ref.selector === undefined))
      out.push(fieldCause.required('spec.paramRef', 'one of `name` or `selector` must be specified'));
    if (ref.parameterNotFoundAction === undefined) out.push(fieldCause.required('spec.paramRef.parameterNotFoundAction'));
    else if (!NOT_FOUND_ACTIONS.includes(String(ref.parameterNotFoundAction)))
      out.push(fieldCause.notSupported('spec.paramRef.parameterNotFoundAction', ref.parameterNotFoundAction, NOT_FOUND_ACTIONS));
  }
  if (isObj(spec.matchResources)) out.push(...matchResourcesCauses(spec.matchResources, 'spec.matchResources', false));
  if (validationActions) out.push(...validationActionsCauses(spec.validationActions));
  return out;
}

/** A validating binding's `validationActions`: at least one, each known and once, and not both Deny and Warn. */
function validationActionsCauses(value: unknown): FieldCause[] {
  const out: FieldCause[] = [];
  const actions = Array.isArray(value) ? value : [];
  if (actions.length === 0) out.push(fieldCause.required('spec.validationActions', 'at least one validation action is required'));
  const seen = new Set<unknown>();
  actions.forEach((a, i) => {
    if (seen.has(a)) out.push(fieldCause.duplicate(`spec.validationActions[${i}]`, a));
    else if (!ACTIONS.includes(String(a))) out.push(fieldCause.notSupported(`spec.validationActions[${i}]`, a, ACTIONS));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    out.push(
      fieldCause.invalid(
        'spec.validationActions',
        actions,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  }
  return out;
}

/** The policy columns: name, how many rules (`validations` or `mutations`), the paramKind, age. */
const policyPrinterOf = (title: string, field: string, description: string): TablePrinter => ({
  columns: [
    nameColumn(),
    column(title, 'integer', description),
    column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
    ageColumn(),
  ],
  cells: (o, now) => {
    const kind = at(o, 'spec', 'paramKind');
    return [
      name(o),
      list(at(o, 'spec', field)).length,
      isObj(kind) ? `${String(kind.apiVersion)}/${String(kind.kind)}` : '<unset>',
      age(o, now),
    ];
  },
});
const policyPrinter = policyPrinterOf(
  'Validations',
  'validations',
  'Validations indicates the number of validation rules defined in this configuration',
);
const mutatingPolicyPrinter = policyPrinterOf(
  'Mutations',
  'mutations',
  'Mutation indicates the number of mutations rules defined in this configuration',
);

function paramRefCell(ref: unknown): string {
  if (!isObj(ref)) return '<unset>';
  if (typeof ref.name === 'string') return `${typeof ref.namespace === 'string' && ref.namespace !== '' ? ref.namespace : '*'}/${ref.name}`;
  return cells.labelSelector(ref.selector);
}

const bindingPrinter: TablePrinter = {
  columns: [
    nameColumn(),
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    ageColumn(),
  ],
  cells: (o, now) => [name(o), cells.text(at(o, 'spec', 'policyName')), paramRefCell(at(o, 'spec', 'paramRef')), age(o, now)],
};

abstract class AdmissionPolicyKind extends Strategy {
  readonly group = 'admissionregistration.k8s.io';
  readonly namespaced = false;
  override readonly categories = ['api-extensions'];
  override readonly tracksGeneration = true;
  protected abstract defaults(spec: Obj): void;
  protected abstract causes(obj: KubeObject, write: ExpressionCompilation): FieldCause[];

  override prepareForCreate(obj: KubeObject, ctx: WriteContext): void {
    super.prepareForCreate(obj, ctx);
    if (isObj(obj.spec)) this.defaults(obj.spec);
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): void {
    super.prepareForUpdate(obj, old, ctx);
    if (isObj(obj.spec)) this.defaults(obj.spec);
  }

  override validate(obj: KubeObject, ctx: WriteContext): FieldCause[] {
    return this.causes(obj, { minor: ctx.kubernetesMinor, stored: NOTHING_STORED });
  }

  override validateUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): FieldCause[] {
    return this.causes(obj, { minor: ctx.kubernetesMinor, stored: storedExpressionsOf(old.spec) });
  }
}

/** A policy kind: kube-apiserver's defaults for every policy (failurePolicy, matchConstraints), and its kind's checks. */
abstract class PolicyKind extends AdmissionPolicyKind {
  protected defaults(spec: Obj): void {
    spec.failurePolicy ??= 'Fail';
    if (isObj(spec.matchConstraints)) defaultMatchResources(spec.matchConstraints);
  }
}

/** A binding kind: its matchResources defaults and `bindingCauses`, with validationActions for the validating kind only. */
abstract class BindingKind extends AdmissionPolicyKind {
  override readonly printer = bindingPrinter;
  protected abstract readonly hasValidationActions: boolean;

  protected defaults(spec: Obj): void {
    if (isObj(spec.matchResources)) defaultMatchResources(spec.matchResources);
  }

  protected causes(obj: KubeObject): FieldCause[] {
    return bindingCauses(obj, { validationActions: this.hasValidationActions });
  }
}

export class ValidatingAdmissionPolicyStrategy extends PolicyKind {
  readonly kind = 'ValidatingAdmissionPolicy';
  readonly plural = 'validatingadmissionpolicies';
  override readonly printer = policyPrinter;
  readonly versions: VersionSpec[] = [builtinVersion('v1', { status: true })];

  protected causes(obj: KubeObject, write: ExpressionCompilation): FieldCause[] {
    return policyCauses(obj, write);
  }
}

export class ValidatingAdmissionPolicyBindingStrategy extends BindingKind {
  readonly kind = 'ValidatingAdmissionPolicyBinding';
  readonly plural = 'validatingadmissionpolicybindings';
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  protected readonly hasValidationActions = true;
}

export class MutatingAdmissionPolicyStrategy extends PolicyKind {
  readonly kind = 'MutatingAdmissionPolicy';
  readonly plural = 'mutatingadmissionpolicies';
  override readonly printer = mutatingPolicyPrinter;
  readonly versions: VersionSpec[] = [builtinVersion('v1')];

  protected override defaults(spec: Obj): void {
    super.defaults(spec);
    spec.reinvocationPolicy ??= 'Never';
  }

  protected causes(obj: KubeObject, write: ExpressionCompilation): FieldCause[] {
    return mutatingPolicyCauses(obj, write);
  }
}

export class MutatingAdmissionPolicyBindingStrategy extends BindingKind {
  readonly kind = 'MutatingAdmissionPolicyBinding';
  readonly plural = 'mutatingadmissionpolicybindings';
  readonly versions: VersionSpec[] = [builtinVersion('v1')];
  protected readonly hasValidationActions = false;
}

/** ValidatingAdmissionPolicies. */
export const validatingAdmissionPolicyKind: BuiltinKind = {
  strategy: () => new ValidatingAdmissionPolicyStrategy(),
  resource: null,
  protobuf: null,
  bodies: [],
};

/** ValidatingAdmissionPolicyBindings. */
export const validatingAdmissionPolicyBindingKind: BuiltinKind = {
  strategy: () => new ValidatingAdmissionPolicyBindingStrategy(),
  resource: null,
  protobuf: null,
  bodies: [],
};

/** MutatingAdmissionPolicies. */
export const mutatingAdmissionPolicyKind: BuiltinKind = {
  strategy: () => new MutatingAdmissionPolicyStrategy(),
  resource: null,
  protobuf: null,
  bodies: [],
};

/** MutatingAdmissionPolicyBindings. */
export const mutatingAdmissionPolicyBindingKind: BuiltinKind = {
  strategy: () => new MutatingAdmissionPolicyBindingStrategy(),
  resource: null,
  protobuf: null,
  bodies: [],
};
