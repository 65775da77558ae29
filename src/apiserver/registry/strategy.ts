/**
 * A strategy is everything type-specific about one stored resource (one `group/plural`): names and
 * scope, served versions, defaulting, validation, generation and status rules, supported field
 * selectors and the scale subresource. Handlers know nothing about types and call only this.
 * `Strategy` holds the defaults shared by most built-ins; each type overrides what differs.
 * Invariant: strategies mutate only the fresh copy being written and never write storage; the few
 * that must look at their neighbours (a CRD's names against other CRDs, a Service's cluster IP and
 * node ports against other Services) read them through a `StoreReader`, which can only read.
 */
import { jsonEqual, type KubeObject } from '../../meta/index.js';
import type { CustomResourceColumnDefinition, JSONSchemaProps, ServedResource, ServedSubresource } from '../served-resource.js';
import { badRequest, type FieldCause } from '../ground/index.js';
import type { TablePrinter } from '../table/index.js';
import type { NameRule } from './object-meta-validation.js';
import type { WebhookClientConfig } from '../webhook-call.js';

export interface ScaleSpec {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface VersionSpec {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: JSONSchemaProps;
  printerColumns?: CustomResourceColumnDefinition[];
  /** The status subresource is enabled. */
  status: boolean;
  scale?: ScaleSpec;
  /** Extra field-selector fields (CRD `selectableFields`, without the leading dot). */
  selectableFields?: string[];
}

/** A CRD's `spec.conversion.webhook`: where its ConversionReviews go and which review versions it reads. */
export interface ConversionWebhook {
  clientConfig: WebhookClientConfig;
  conversionReviewVersions: string[];
}

/** What a strategy may read of storage: the current objects of one resource (`group/plural`), never a write. */
export interface StoreReader {
  list(resource: string): Iterable<KubeObject>;
}

/** What a strategy may know about the write it is preparing. */
export interface WriteContext {
  /** The version the request came through. */
  version: string;
  /** `clock.now()` at the start of the request. */
  now: number;
  /** `fieldValidation` of the request (what to do with unknown fields). */
  fieldValidation: 'Ignore' | 'Warn' | 'Strict';
  /** Strategies append `Warning` header texts here (pruned fields, deprecations). */
  warnings: string[];
  /**
   * The Kubernetes minor the server behaves as: for rules that changed between versions (`versions/`),
   * and for which CEL libraries an expression written now may use.
   */
  kubernetesMinor: number;
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const SUB_VERBS = ['get', 'patch', 'update'];

/** Reads a dotted path (`spec.replicas`, or `.spec.replicas`) from an object. */
export function readPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.replace(/^\./, '').split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Writes a dotted path, creating objects on the way. */
export function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== 'object') cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

/**
 * The JSON kind a typed field must have, as Go's decoder demands of a built-in object: a path names a
 * field (`spec.ports`); a part ending in `[]` stands for each element of that list (`spec.ports[]`,
 * `spec.versions[].schema`).
 */
export type DecodedFields = Record<string, 'object' | 'array'>;

const jsonKind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The first field of `obj` whose kind differs from `fields` (null is absent, as Go decodes it), or undefined. */
function misdecodedField(obj: unknown, fields: DecodedFields): { path: string; want: string; got: string } | undefined {
  for (const [path, want] of Object.entries(fields)) {
    let values: unknown[] = [obj];
    for (const part of path.split('.')) {
      const name = part.endsWith('[]') ? part.slice(0, -2) : part;
      values = values.flatMap((v) =>
        v !== null && typeof v === 'object' && !Array.isArray(v) ? [(v as Record<string, unknown>)[name]] : [],
      );
      if (name !== part) values = values.flatMap((v) => (Array.isArray(v) ? v : []));
    }
    const each = path.endsWith('[]');
    for (const v of values) {
      if (v === undefined || (v === null && !each)) continue;
      if (jsonKind(v) !== want) return { path, want, got: jsonKind(v) };
    }
  }
  return undefined;
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

export abstract class Strategy {
  abstract readonly group: string;
  abstract readonly kind: string;
  abstract readonly plural: string;
  abstract readonly namespaced: boolean;
  abstract readonly versions: VersionSpec[];
  get singular(): string {
    return this.kind.toLowerCase();
  }
  get listKind(): string {
    return `${this.kind}List`;
  }
  readonly shortNames: string[] = [];
  readonly categories: string[] = [];
  readonly nameRule: NameRule = 'subdomain';
  /** `metadata.generation` is maintained (1 on create, bumped by `generationChanged`). */
  readonly tracksGeneration: boolean = false;
  /** PUT without `metadata.resourceVersion` means last-write-wins (else 422). */
  readonly allowUnconditionalUpdate: boolean = true;
  /** PUT to a missing object creates it. */
  readonly allowCreateOnUpdate: boolean = false;
  /** An immediate DELETE answers with the deleted object rather than a Success Status. */
  readonly returnDeletedObject: boolean = false;
  readonly allowDeleteCollection: boolean = true;
  /** Served from a CRD. */
  readonly custom: boolean = false;
  /** The server-side Table printer (`kubectl get` columns); kinds without one print `Name` and `Created At`. */
  readonly printer: TablePrinter | undefined = undefined;
  /**
   * Typed fields the strategy's hooks read: a body with another kind there is refused with 400 before
   * any hook runs, as the real server's decoder refuses it, so no hook meets a shape it cannot handle.
   */
  protected readonly decodedFields: DecodedFields = {};
  /** Field-selector fields beyond `metadata.name`/`metadata.namespace`. */
  protected readonly fields: Record<string, (obj: KubeObject) => unknown> = {};

  /** Where objects of another version than the stored one are converted (CRDs with `strategy: Webhook`); else only apiVersion changes. */
  readonly conversionWebhook: ConversionWebhook | undefined = undefined;

  /** The version objects are written in. */
  get storageVersion(): string {
    return (this.versions.find((v) => v.storage) ?? this.versions[0]!).name;
  }

  /** The registry id (`group/plural`). */
  get id(): string {
    return `${this.group}/${this.plural}`;
  }

  /** Where the objects live: events, tables and watchers are keyed by it. Kinds served through two groups share one. */
  get storageId(): string {
    return this.id;
  }

  /** A stored object as this strategy serves it at `version` (conversion `None`: only apiVersion changes). */
  toExternal(obj: KubeObject, version: string): KubeObject {
    const apiVersion = this.apiVersion(version);
    return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
  }

  /** A served object in its stored form (the inverse of `toExternal`). */
  toInternal(obj: KubeObject): KubeObject {
    return obj;
  }

  version(name: string): VersionSpec | undefined {
    return this.versions.find((v) => v.name === name);
  }

  hasStatus(version: string): boolean {
    return this.version(version)?.status ?? false;
  }

  scaleOf(version: string): ScaleSpec | undefined {
    return this.version(version)?.scale;
  }

  apiVersion(version: string): string {
    return this.group ? `${this.group}/${version}` : version;
  }

  /** Throws 400 when a typed field of `obj` has the wrong JSON kind (see `decodedFields`). */
  checkDecodable(obj: KubeObject): void {
    const bad = misdecodedField(obj, this.decodedFields);
    if (bad)
      throw badRequest(
        `unable to decode the object: ${this.kind}.${bad.path} must be ${bad.want === 'array' ? 'an array' : 'an object'}, not ${bad.got}`,
      );
  }

  /** Defaulting and server-set fields on create (status reset where the type has a status subresource). */
  prepareForCreate(obj: KubeObject, ctx: WriteContext): void {
    if (this.hasStatus(ctx.version)) this.resetStatusOnCreate(obj);
  }

  protected resetStatusOnCreate(obj: KubeObject): void {
    delete obj.status;
  }

  /** On the main endpoint, status changes are discarded when the type has a status subresource. */
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): void {
    if (this.hasStatus(ctx.version)) {
      if (old.status === undefined) delete obj.status;
      else obj.status = old.status;
    }
  }

  /** On `/status`, everything but status comes from the stored object (CR rule; built-ins refine it). */
  prepareForStatusUpdate(obj: KubeObject, old: KubeObject, _ctx: WriteContext): void {
    for (const k of Object.keys(obj)) if (k !== 'status' && k !== 'metadata' && k !== 'apiVersion' && k !== 'kind') delete obj[k];
    for (const [k, v] of Object.entries(old)) if (k !== 'status' && k !== 'metadata') obj[k] = v;
    const managedFields = obj.metadata.managedFields;
    obj.metadata = { ...old.metadata };
    if (managedFields !== undefined) obj.metadata.managedFields = managedFields;
  }

  /** Seconds of graceful deletion for this object (0 = immediate; only Pods on a node have more). */
  gracePeriodSeconds(_obj: KubeObject, _requested: number | undefined): number {
    return 0;
  }

  /** Whether a deleting object with no finalizers left must still stay (a Namespace until its spec finalizers are cleared). */
  holdsDeletion(_obj: KubeObject): boolean {
    return false;
  }

  /** Whether an update on the main endpoint bumps `metadata.generation`. */
  generationChanged(obj: KubeObject, old: KubeObject): boolean {
    return !jsonEqual(obj.spec, old.spec);
  }

  validate(_obj: KubeObject, _ctx: WriteContext): FieldCause[] {
    return [];
  }

  validateUpdate(obj: KubeObject, _old: KubeObject, ctx: WriteContext): FieldCause[] {
    return this.validate(obj, ctx);
  }

  /** Value of a field-selector field, or null when the field is not supported for this kind. */
  fieldValue(obj: KubeObject, field: string, version: string): string | null {
    if (field === 'metadata.name') return str(obj.metadata.name);
    if (field === 'metadata.namespace' && this.namespaced) return str(obj.metadata.namespace);
    const f = this.fields[field];
    if (f) return str(f(obj));
    if (this.version(version)?.selectableFields?.includes(field)) return str(readPath(obj, field));
    return null;
  }

  /** Discovery's view of one served version. */
  served(version: string): ServedResource {
    const v = this.version(version)!;
    const subresources: ServedSubresource[] = [];
    if (v.scale)
      subresources.push({ name: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: SUB_VERBS });
    if (v.status) subresources.push({ name: 'status', responseKind: { group: this.group, version, kind: this.kind }, verbs: SUB_VERBS });
    const out: ServedResource = {
      group: this.group,
      version,
      kind: this.kind,
      plural: this.plural,
      singular: this.singular,
      namespaced: this.namespaced,
      shortNames: this.shortNames,
      categories: this.categories,
      verbs: this.allowDeleteCollection ? ALL_VERBS : ALL_VERBS.filter((x) => x !== 'deletecollection'),
      subresources,
      custom: this.custom,
    };
    if (v.schema) out.schema = v.schema;
    if (v.printerColumns) out.printerColumns = v.printerColumns;
    return out;
  }
}

/** A one-version built-in with the common shape. */
export const builtinVersion = (name: string, opts: Partial<VersionSpec> = {}): VersionSpec => ({
  name,
  served: true,
  storage: true,
  status: false,
  ...opts,
});
