/**
 * Query parameters shared by the write verbs: `dryRun`, `fieldManager` (defaulting to the
 * User-Agent's product name), `fieldValidation`, and the typeMeta/namespace/name checks every body
 * goes through. Violations produce the real server's 400/422 Status objects.
 */
import type { KubeObject } from '../../meta/index.js';
import type { Scope } from '../registry/index.js';
import type { FieldSet } from '../apply/index.js';
import type { RequestAdmission } from '../admission/index.js';
import { headerOf } from '../wire/index.js';
import { badRequest, fieldCause, invalid } from '../ground/index.js';
import { builtinSchemas, inspectBody, type UnknownField } from '../builtin-schemas/index.js';

export interface WriteParams {
  dryRun: boolean;
  manager: string;
  fieldValidation: 'Ignore' | 'Warn' | 'Strict';
  /** Fields mutating admission set that the request did not: recorded as nobody's. */
  unowned?: FieldSet | undefined;
  /** The request's admission, for the validating step (absent for the server's own writes). */
  admission?: RequestAdmission | undefined;
}

const optionsInvalid = (kind: string, field: string, cause: ReturnType<typeof fieldCause.invalid>): never => {
  throw invalid(kind, 'meta.k8s.io', '', [{ ...cause, field }]);
};

export function writeParams(scope: Scope, optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions'): WriteParams {
  const q = scope.query;
  const dryRunValues = q.getAll('dryRun');
  for (const v of dryRunValues) if (v !== 'All') optionsInvalid(optionsKind, 'dryRun', fieldCause.notSupported('dryRun', [v], ['All']));
  let manager = q.get('fieldManager') ?? '';
  if (manager.length > 128) optionsInvalid(optionsKind, 'fieldManager', fieldCause.tooLong('fieldManager', 128));
  if (!manager) {
    // The product part of the User-Agent (`kubectl/v1.33 …` → `kubectl`), as the real server does.
    const product = (headerOf(scope.req, 'user-agent') ?? '').split('/')[0]!.slice(0, 128);
    manager = product === '' ? 'unknown' : product;
  }
  const fv = q.get('fieldValidation') ?? 'Warn';
  if (fv !== 'Ignore' && fv !== 'Warn' && fv !== 'Strict') {
    optionsInvalid(optionsKind, 'fieldValidation', fieldCause.notSupported('fieldValidation', fv, ['Ignore', 'Strict', 'Warn']));
  }
  return { dryRun: dryRunValues.length > 0, manager, fieldValidation: fv as WriteParams['fieldValidation'] };
}

/** Body apiVersion/kind must name the endpoint's kind (empty is filled in); a built-in body's fields must decode into their Go types. */
export function checkTypeMeta(
  scope: Scope,
  obj: KubeObject,
  expect = { apiVersion: scope.strategy.apiVersion(scope.version), kind: scope.strategy.kind },
): void {
  if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== expect.apiVersion) {
    throw badRequest(
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expect.apiVersion})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== expect.kind) {
    throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${expect.kind})`);
  }
  obj.apiVersion = expect.apiVersion;
  obj.kind = expect.kind;
  if (!scope.strategy.custom) checkFieldTypes(scope, obj, expect.kind);
}

/**
 * The unknown fields the decode walk found in a built-in body, kept until the write pipeline takes
 * them (see `takeUnknownFields`). Keyed by the body itself: admission that changes a body returns a
 * new object (a JSON patch works on a copy), so a body that reaches the pipeline as itself still has
 * exactly these fields; the steps in between touch only declared metadata fields.
 */
const decodedUnknown = new WeakMap<KubeObject, { component: string; unknown: UnknownField[] }>();

/**
 * The unknown fields the decode walk listed for `obj` as the kind `component`, if it is a decoded
 * request body as it was decoded, once (a second take answers undefined: the first one's caller
 * dropped them); undefined otherwise, and the caller walks the object itself.
 */
export function takeUnknownFields(obj: KubeObject, component: string): UnknownField[] | undefined {
  const decoded = decodedUnknown.get(obj);
  decodedUnknown.delete(obj);
  return decoded?.component === component ? decoded.unknown : undefined;
}

/**
 * A built-in body with a field of a JSON kind its Go type cannot take is a 400 in the Go decoder's
 * words (first field in body order), whatever `fieldValidation` says: kube-apiserver cannot decode it
 * at all. Checked here, where request bodies are decoded, so the server's own writes never pay for
 * the walk. The same walk lists the body's unknown fields, which the write pipeline reports and drops
 * after admission, as before. A kind without a schema keeps the one check that `spec` and `status` are objects.
 */
function checkFieldTypes(scope: Scope, obj: KubeObject, kind: string): void {
  const schemas = builtinSchemas();
  const component = schemas.componentOf({ group: scope.strategy.group, version: scope.version, kind });
  if (component !== undefined) {
    const found = inspectBody(schemas, component, obj as unknown as Record<string, unknown>, { types: true });
    if (found.typeError !== undefined) {
      throw badRequest(`${kind} in version "${scope.version}" cannot be handled as a ${kind}: ${found.typeError}`);
    }
    decodedUnknown.set(obj, { component, unknown: found.unknown });
  }
  for (const f of ['spec', 'status']) {
    const v = obj[f];
    if (v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v))) {
      throw badRequest(`unable to decode the object: ${kind}.${f} must be an object`);
    }
  }
}

/** Body namespace: filled from the URL when empty, 400 when different; cleared for cluster-scoped kinds. */
export function reconcileNamespace(scope: Scope, obj: KubeObject): void {
  if (!scope.strategy.namespaced) {
    delete obj.metadata.namespace;
    return;
  }
  const ns = obj.metadata.namespace;
  if (!ns) obj.metadata.namespace = scope.namespace;
  else if (ns !== scope.namespace)
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
}
