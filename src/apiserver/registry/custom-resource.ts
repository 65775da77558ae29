/**
 * The one strategy that serves every custom resource, built from its CRD: names, scope and versions
 * (served/storage; conversion `None` rewrites only apiVersion, objects are stored in the storage
 * version; with `Webhook` the handlers convert through the webhook and this strategy only checks that
 * they did), per-version status and scale subresources, printer columns and
 * selectable fields, and the structural schema applied on every write — defaulting, pruning of
 * unknown fields (Warning headers, or 400 with `fieldValidation=Strict`), then validation (422 with a
 * cause per field) by the OpenAPI schema and the CEL rules, transition rules on updates only. Generation bumps on any change outside metadata; PUT needs a resourceVersion.
 */
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import { jsonEqual, type KubeObject } from '../../meta/index.js';
import { applyDefaults, pruneUnknownFields, validateCustomResource } from '../schema/index.js';
import { badRequest, methodNotAllowedBecause, type FieldCause } from '../ground/index.js';
import { Strategy, type ConversionWebhook, type VersionSpec, type WriteContext } from './strategy.js';

export class CustomResourceStrategy extends Strategy {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly versions: VersionSpec[];
  override readonly shortNames: string[];
  override readonly categories: string[];
  override readonly custom = true;
  override readonly tracksGeneration = true;
  override readonly allowUnconditionalUpdate = false;
  override readonly conversionWebhook: ConversionWebhook | undefined;
  readonly #singular: string;
  readonly #listKind: string;
  /** Reports whether the CRD is being deleted (creates are then refused). */
  readonly terminating: () => boolean;

  constructor(crd: CustomResourceDefinition, terminating: () => boolean) {
    super();
    const spec = crd.spec;
    this.group = spec.group;
    this.kind = spec.names.kind;
    this.plural = spec.names.plural;
    this.namespaced = spec.scope === 'Namespaced';
    this.#singular = spec.names.singular ?? spec.names.kind.toLowerCase();
    this.#listKind = spec.names.listKind ?? `${spec.names.kind}List`;
    this.shortNames = [...(spec.names.shortNames ?? [])];
    this.categories = [...(spec.names.categories ?? [])];
    this.terminating = terminating;
    const webhook = spec.conversion?.strategy === 'Webhook' ? spec.conversion.webhook : undefined;
    this.conversionWebhook = webhook?.clientConfig
      ? {
          clientConfig: webhook.clientConfig as ConversionWebhook['clientConfig'],
          conversionReviewVersions: webhook.conversionReviewVersions,
        }
      : undefined;
    this.versions = spec.versions.map((v) => {
      const out: VersionSpec = { name: v.name, served: v.served, storage: v.storage, status: v.subresources?.status !== undefined };
      if (v.schema?.openAPIV3Schema) out.schema = v.schema.openAPIV3Schema;
      if (v.additionalPrinterColumns) out.printerColumns = v.additionalPrinterColumns;
      if (v.subresources?.scale) {
        const s = v.subresources.scale;
        out.scale = {
          specReplicasPath: s.specReplicasPath,
          statusReplicasPath: s.statusReplicasPath,
          ...(s.labelSelectorPath ? { labelSelectorPath: s.labelSelectorPath } : {}),
        };
      }
      if (v.selectableFields) out.selectableFields = v.selectableFields.map((f) => f.jsonPath.replace(/^\./, ''));
      return out;
    });
  }

  /** Conversion `None` serves a stored object at any version by its apiVersion alone; a webhook's answer was prepared by the handler. */
  override toExternal(obj: KubeObject, version: string): KubeObject {
    if (this.conversionWebhook && obj.apiVersion !== this.apiVersion(version)) {
      throw new Error(`${this.kind} ${obj.metadata.name ?? ''} was not converted to ${version} before it was served`);
    }
    return super.toExternal(obj, version);
  }

  /** Stored in the storage version: `None` rewrites apiVersion; the webhook path converts before the commit. */
  override toInternal(obj: KubeObject): KubeObject {
    return this.conversionWebhook ? obj : super.toExternal(obj, this.storageVersion);
  }

  override get singular(): string {
    return this.#singular;
  }

  override get listKind(): string {
    return this.#listKind;
  }

  /** Defaulting and pruning per the version's schema; unknown fields become warnings or a 400. */
  #applySchema(obj: KubeObject, ctx: WriteContext): void {
    const schema = this.version(ctx.version)?.schema;
    if (!schema) return;
    applyDefaults(obj, schema);
    const pruned = pruneUnknownFields(obj, schema).map((p) => p.replace(/^\./, ''));
    if (pruned.length === 0 || ctx.fieldValidation === 'Ignore') return;
    if (ctx.fieldValidation === 'Strict') {
      const list = pruned.map((p) => `unknown field "${p}"`).join(', ');
      throw badRequest(`${this.kind} in version "${ctx.version}" cannot be handled as a ${this.kind}: strict decoding error: ${list}`);
    }
    for (const p of pruned) ctx.warnings.push(`unknown field "${p}"`);
  }

  /** The real server warns about finalizer names that are not domain-qualified. */
  #warnFinalizers(obj: KubeObject, ctx: WriteContext): void {
    for (const f of obj.metadata.finalizers ?? []) {
      if (typeof f === 'string' && !f.includes('/')) {
        ctx.warnings.push(
          `metadata.finalizers: "${f}": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`,
        );
      }
    }
  }

  override prepareForCreate(obj: KubeObject, ctx: WriteContext): void {
    if (this.terminating()) {
      throw methodNotAllowedBecause('create not allowed while custom resource definition is terminating');
    }
    super.prepareForCreate(obj, ctx);
    this.#applySchema(obj, ctx);
    this.#warnFinalizers(obj, ctx);
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): void {
    super.prepareForUpdate(obj, old, ctx);
    this.#applySchema(obj, ctx);
    this.#warnFinalizers(obj, ctx);
  }

  override prepareForStatusUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): void {
    super.prepareForStatusUpdate(obj, old, ctx);
    this.#applySchema(obj, ctx);
  }

  override generationChanged(obj: KubeObject, old: KubeObject): boolean {
    const strip = (o: KubeObject): Record<string, unknown> => {
      const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = o;
      return rest;
    };
    return !jsonEqual(strip(obj), strip(old));
  }

  override validate(obj: KubeObject, ctx: WriteContext): FieldCause[] {
    return this.#validate(obj, undefined, ctx);
  }

  override validateUpdate(obj: KubeObject, old: KubeObject, ctx: WriteContext): FieldCause[] {
    return this.#validate(obj, old, ctx);
  }

  /** OpenAPI checks, then the CEL rules (transition rules only with `old`); ratcheted failures become warnings. */
  #validate(obj: KubeObject, old: KubeObject | undefined, ctx: WriteContext): FieldCause[] {
    const schema = this.version(ctx.version)?.schema;
    if (!schema) return [];
    const result = validateCustomResource(obj, schema, old);
    ctx.warnings.push(...result.warnings);
    return result.causes;
  }

  override served(version: string): ReturnType<Strategy['served']> {
    const r = super.served(version);
    if (!r.printerColumns) r.printerColumns = [];
    return r;
  }
}
