/**
 * CustomResourceDefinitions (apiextensions.k8s.io/v1): defaulting of names and conversion, the
 * validation kube-apiserver applies (name = plural.group, a dotted group, exactly one storage version,
 * a structural schema per version whose CEL rules compile within their cost limits, a conversion
 * `None` or `Webhook` with its clientConfig, and `status.storedVersions` that all stay in
 * `spec.versions` and include the storage version), and what the naming and establishing controllers would write — on create the
 * status already carries `acceptedNames`, `storedVersions` and the `NamesAccepted`/`Established`
 * conditions, and the `customresourcecleanup` finalizer is added, so the kind is served as soon as
 * the create returns. Names that collide with another CRD of the group are not accepted.
 */
import type { CustomResourceDefinition, JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { CustomResourceDefinitionResource, formatTimestamp, jsonEqual, InvalidOptionError, type KubeObject } from '../../meta/index.js';
import { celSchemaErrors, preexistingExpressions, validateStructuralSchema, type RuleCompilation } from '../schema/index.js';
import { defaultPrinter, parseJsonPath } from '../table/index.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { Strategy, builtinVersion, type StoreReader, type VersionSpec, type WriteContext } from './strategy.js';
import type { BuiltinKind } from './builtin-kind.js';
import { isOn } from '../versions/index.js';

export const CRD_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
type Obj = Record<string, unknown>;

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

export const crdOf = (o: KubeObject): CustomResourceDefinition => o as unknown as CustomResourceDefinition;

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];

/** Printer columns need a name, a type and a JSONPath the table printer can follow (else every Table read of the kind would fail). */
function printerColumnErrors(columns: unknown, path: string): FieldCause[] {
  if (columns === undefined || columns === null) return [];
  const out: FieldCause[] = [];
  (columns as unknown[]).forEach((c, i) => {
    const f = `${path}[${i}]`;
    const col = c as Obj;
    if (typeof col.name !== 'string' || !col.name) out.push(fieldCause.required(`${f}.name`));
    if (typeof col.type !== 'string' || !col.type) out.push(fieldCause.required(`${f}.type`));
    else if (!COLUMN_TYPES.includes(col.type)) out.push(fieldCause.notSupported(`${f}.type`, col.type, COLUMN_TYPES));
    if (typeof col.jsonPath !== 'string' || !col.jsonPath) out.push(fieldCause.required(`${f}.jsonPath`));
    else {
      try {
        parseJsonPath(col.jsonPath);
      } catch (e) {
        if (!(e instanceof InvalidOptionError)) throw e;
        out.push(fieldCause.invalid(`${f}.jsonPath`, col.jsonPath, 'must be a simple json path'));
      }
    }
  });
  return out;
}

const REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** `spec.conversion`: `None` takes no webhook; `Webhook` needs one with a clientConfig and a review version the server speaks. */
function conversionErrors(conversion: unknown): FieldCause[] {
  const c = (conversion ?? {}) as Obj;
  const strategy = c.strategy ?? 'None';
  if (strategy !== 'None' && strategy !== 'Webhook')
    return [fieldCause.notSupported('spec.conversion.strategy', strategy, ['None', 'Webhook'])];
  const webhook = c.webhook as Obj | undefined;
  if (strategy === 'None') {
    return webhook ? [fieldCause.forbidden('spec.conversion.webhook', 'should not be set when strategy is not set to Webhook')] : [];
  }
  if (!webhook) return [fieldCause.required('spec.conversion.webhook', 'required when strategy is set to Webhook')];
  const out: FieldCause[] = [];
  const config = webhook.clientConfig as Obj | undefined;
  if (!config) out.push(fieldCause.required('spec.conversion.webhook.clientConfig', 'required when strategy is set to Webhook'));
  else if (!config.url === !config.service)
    out.push(fieldCause.required('spec.conversion.webhook.clientConfig', 'exactly one of url or service is required'));
  const versions = Array.isArray(webhook.conversionReviewVersions) ? (webhook.conversionReviewVersions as unknown[]) : [];
  if (!versions.some((v) => REVIEW_VERSIONS.includes(v as string))) {
    out.push(fieldCause.invalid('spec.conversion.webhook.conversionReviewVersions', versions, 'must include at least one of v1, v1beta1'));
  }
  return out;
}

/** Versions objects may still be stored in must stay in the spec, and the storage version must be among them. */
function storedVersionErrors(obj: KubeObject): FieldCause[] {
  const crd = crdOf(obj);
  const stored = crd.status?.storedVersions ?? [];
  const versions = Array.isArray(crd.spec?.versions) ? crd.spec.versions : [];
  const names = new Set(versions.map((v) => v?.name));
  const out = stored.flatMap((v, i) =>
    names.has(v)
      ? []
      : [
          fieldCause.invalid(
            `status.storedVersions[${i}]`,
            v,
            `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
          ),
        ],
  );
  const storage = versions.find((v) => v?.storage)?.name;
  if (storage && !stored.includes(storage))
    out.push(fieldCause.invalid('status.storedVersions', stored, `must have the storage version ${storage}`));
  return out;
}

export class CrdStrategy extends Strategy {
  /** kube-apiserver prints CRDs with its default columns. */
  override readonly printer = defaultPrinter;
  readonly group = 'apiextensions.k8s.io';
  readonly kind = 'CustomResourceDefinition';
  readonly plural = 'customresourcedefinitions';
  readonly namespaced = false;
  readonly versions: VersionSpec[] = [builtinVersion('v1', { status: true })];
  override readonly shortNames = ['crd', 'crds'];
  override readonly categories = ['api-extensions'];
  override readonly tracksGeneration = true;
  protected override readonly decodedFields = {
    spec: 'object',
    'spec.names': 'object',
    'spec.versions': 'array',
    'spec.versions[]': 'object',
    'spec.versions[].schema': 'object',
    'spec.versions[].schema.openAPIV3Schema': 'object',
    'spec.versions[].additionalPrinterColumns': 'array',
    'spec.versions[].additionalPrinterColumns[]': 'object',
    'spec.versions[].selectableFields': 'array',
    'spec.versions[].selectableFields[]': 'object',
  } as const;
  readonly #store: StoreReader;

  constructor(store: StoreReader) {
    super();
    this.#store = store;
  }

  /** Defaults, and a shape good enough for the status computation (validation reports the rest). */
  #defaults(obj: KubeObject): void {
    const spec = (obj.spec ??= {}) as Obj;
    if (spec.names === null || typeof spec.names !== 'object' || Array.isArray(spec.names)) spec.names = {};
    const names = spec.names as Obj;
    if (typeof names.kind === 'string') {
      names.singular ??= names.kind.toLowerCase();
      names.listKind ??= `${names.kind}List`;
    }
    spec.conversion ??= { strategy: 'None' };
  }

  /** Names of another CRD in the same group that collide with this one's, as a NamesAccepted reason. */
  #conflict(obj: KubeObject): string | undefined {
    const spec = crdOf(obj).spec;
    const names = spec.names;
    const shortNames = Array.isArray(names.shortNames) ? names.shortNames : [];
    for (const other of this.#store.list(this.storageId)) {
      if (other.metadata.name === obj.metadata.name) continue;
      const o = crdOf(other).spec;
      if (o.group !== spec.group) continue;
      if (o.names.kind === names.kind) return 'KindConflict';
      if ((o.names.singular ?? '') === names.singular) return 'SingularConflict';
      if ((o.names.shortNames ?? []).some((s) => shortNames.includes(s))) return 'ShortNamesConflict';
      if ((o.names.listKind ?? `${o.names.kind}List`) === names.listKind) return 'ListKindConflict';
    }
    return undefined;
  }

  #status(obj: KubeObject, ctx: WriteContext): void {
    const crd = crdOf(obj);
    const time = formatTimestamp(ctx.now);
    const gen = obj.metadata.generation ?? 1;
    const conflict = this.#conflict(obj);
    const old = (obj.status ?? {}) as Obj;
    const conditions: Condition[] = conflict
      ? [
          {
            type: 'NamesAccepted',
            status: 'False',
            reason: conflict,
            message: `"${crd.spec.names.plural}" conflicts with another CustomResourceDefinition`,
            lastTransitionTime: time,
            observedGeneration: gen,
          },
          {
            type: 'Established',
            status: 'False',
            reason: 'NotAccepted',
            message: 'not all names are accepted',
            lastTransitionTime: time,
            observedGeneration: gen,
          },
        ]
      : [
          {
            type: 'NamesAccepted',
            status: 'True',
            reason: 'NoConflicts',
            message: 'no conflicts found',
            lastTransitionTime: time,
            observedGeneration: gen,
          },
          {
            type: 'Established',
            status: 'True',
            reason: 'InitialNamesAccepted',
            message: 'the initial names have been accepted',
            lastTransitionTime: time,
            observedGeneration: gen,
          },
        ];
    const prev = (old.conditions as Condition[] | undefined) ?? [];
    for (const c of conditions) {
      const p = prev.find((x) => x.type === c.type);
      if (p && p.status === c.status) c.lastTransitionTime = p.lastTransitionTime;
    }
    // Before 1.36 the field is not in the API: kube-apiserver drops it from CRD conditions.
    if (!isOn('crdObservedGeneration', ctx.kubernetesMinor)) for (const c of conditions) delete c.observedGeneration;
    const terminating = prev.find((c) => c.type === 'Terminating');
    if (terminating) conditions.push(terminating);
    const versions = Array.isArray(crd.spec.versions) ? crd.spec.versions : [];
    const storage = versions.find((v) => v && v.storage)?.name;
    const stored = new Set<string>((old.storedVersions as string[] | undefined) ?? []);
    if (storage) stored.add(storage);
    obj.status = {
      conditions,
      acceptedNames: conflict ? (old.acceptedNames ?? { plural: '', kind: '' }) : crd.spec.names,
      storedVersions: [...stored],
    };
  }

  override prepareForCreate(obj: KubeObject, ctx: WriteContext): void {
    this.#defaults(obj);
    const m = obj.metadata as Obj;
    const finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== CRD_FINALIZER);
    m.finalizers = [...finalizers, CRD_FINALIZER];
    delete obj.status;
    m.generation = 1;
    this.#status(obj, ctx);
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): void {
    this.#defaults(obj);
    obj.status = old.status;
    if (!jsonEqual(obj.spec, old.spec)) {
      (obj.metadata as Obj).generation = (old.metadata.generation ?? 1) + 1;
      this.#status(obj, ctx);
    }
  }

  override validate(obj: KubeObject, ctx: WriteContext): FieldCause[] {
    return this.#validate(obj, preexistingExpressions(ctx.kubernetesMinor, []));
  }

  /** `rules`: how the CEL rules compile, new ones at the server's compatibility version. */
  #validate(obj: KubeObject, rules: RuleCompilation): FieldCause[] {
    const out: FieldCause[] = [];
    const spec = (obj.spec ?? {}) as Obj;
    const names = (spec.names ?? {}) as Obj;
    const group = spec.group;
    if (typeof group !== 'string' || !group) out.push(fieldCause.required('spec.group'));
    else if (!group.includes('.')) out.push(fieldCause.invalid('spec.group', group, 'should be a domain with at least one dot'));
    if (typeof names.plural !== 'string' || !names.plural) out.push(fieldCause.required('spec.names.plural'));
    if (typeof names.kind !== 'string' || !names.kind) out.push(fieldCause.required('spec.names.kind'));
    if (typeof names.plural === 'string' && typeof group === 'string' && obj.metadata.name !== `${names.plural}.${group}`) {
      out.push(fieldCause.invalid('metadata.name', obj.metadata.name, 'must be spec.names.plural+"."+spec.group'));
    }
    if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster')
      out.push(fieldCause.notSupported('spec.scope', spec.scope ?? '', ['Cluster', 'Namespaced']));
    if (spec.preserveUnknownFields === true)
      out.push(fieldCause.invalid('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'));
    if (spec.versions !== undefined && !Array.isArray(spec.versions))
      return [...out, fieldCause.invalid('spec.versions', spec.versions, 'must be a list')];
    const versions = ((spec.versions as unknown[] | undefined) ?? []).map((v) => (v !== null && typeof v === 'object' ? v : {}) as Obj);
    if (versions.length === 0) out.push(fieldCause.required('spec.versions', 'must have exactly one version marked as storage version'));
    else if (versions.filter((v) => v.storage === true).length !== 1) {
      out.push(
        fieldCause.invalid(
          'spec.versions',
          versions.map((v) => v.name),
          'must have exactly one version marked as storage version',
        ),
      );
    }
    const seen = new Set<unknown>();
    versions.forEach((v, i) => {
      const f = `spec.versions[${i}]`;
      if (typeof v.name !== 'string' || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v.name))
        out.push(fieldCause.invalid(`${f}.name`, v.name, 'must be a DNS-1035 label'));
      if (seen.has(v.name)) out.push(fieldCause.duplicate(`${f}.name`, v.name));
      seen.add(v.name);
      const schema = (v.schema as Obj | undefined)?.openAPIV3Schema;
      if (!schema) out.push(fieldCause.required(`${f}.schema.openAPIV3Schema`, 'schemas are required'));
      else {
        const structural = validateStructuralSchema(schema as never, `${f}.schema.openAPIV3Schema`) as FieldCause[];
        out.push(...structural);
        // Rules are compiled against the schema's types, which only a structural schema has.
        if (structural.length === 0) out.push(...celSchemaErrors(schema as never, `${f}.schema.openAPIV3Schema`, rules));
      }
      out.push(...printerColumnErrors(v.additionalPrinterColumns, `${f}.additionalPrinterColumns`));
      const sf = (v.selectableFields as unknown[] | undefined) ?? [];
      if (sf.length > 8) out.push(fieldCause.tooMany(`${f}.selectableFields`, sf.length, 8, 'items'));
    });
    out.push(...conversionErrors(spec.conversion));
    return out;
  }

  override validateUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): FieldCause[] {
    // A rule the old CRD already had is a stored expression: it keeps compiling after a rollback.
    const out = this.#validate(obj, preexistingExpressions(ctx.kubernetesMinor, versionSchemas(old)));
    const a = (obj.spec ?? {}) as Obj;
    const b = (old.spec ?? {}) as Obj;
    if (a.group !== b.group) out.push(fieldCause.invalid('spec.group', a.group, 'field is immutable'));
    if (a.scope !== b.scope) out.push(fieldCause.invalid('spec.scope', a.scope, 'field is immutable'));
    out.push(...storedVersionErrors(obj));
    return out;
  }
}

/** The schemas of a CRD's versions. */
function versionSchemas(crd: KubeObject): JSONSchemaProps[] {
  const versions = ((crd.spec ?? {}) as Obj).versions;
  if (!Array.isArray(versions)) return [];
  return versions.flatMap((v: Obj | null) => {
    const schema = (v?.schema as Obj | undefined)?.openAPIV3Schema;
    return schema !== null && typeof schema === 'object' ? [schema as JSONSchemaProps] : [];
  });
}

/** CustomResourceDefinitions; the strategy reads the other CRDs for name conflicts. */
export const crdKind: BuiltinKind = {
  strategy: (store) => new CrdStrategy(store),
  resource: CustomResourceDefinitionResource,
  protobuf: null,
  bodies: [],
};
