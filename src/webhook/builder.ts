/**
 * The webhook builder, controller-runtime's `NewWebhookManagedBy`: one kind, its defaulter and its
 * validator (and the kind's conversion), registered on the manager's webhook server at the
 * conventional paths. Invariant: `complete()` registers everything or, on a bad combination,
 * nothing (a builder with neither defaulter, validator nor conversion is refused).
 */
import { InvalidOptionError, type KubeObject, type ResourceDescriptor } from '../meta/index.js';
import type { Manager } from '../manager/index.js';
import { defaultingHandler, validatingHandler, type Defaulter, type Validator } from './admission-handler.js';
import type { Conversion } from './conversion.js';
import { webhookServerFor } from './manager-server.js';
import { mutatePath, validatePath } from './paths.js';

/** Builds the webhooks of one kind; start with `webhookManagedBy(mgr)`. */
export class WebhookBuilder<T extends KubeObject = KubeObject> {
  readonly #mgr: Manager;
  #resource: ResourceDescriptor<T> | undefined;
  #defaulter: Defaulter<T> | undefined;
  #validator: Validator<T> | undefined;
  #conversion: Conversion | undefined;
  #sideEffects: 'None' | 'NoneOnDryRun' = 'None';

  constructor(mgr: Manager) {
    this.#mgr = mgr;
  }

  /** The kind (and version) the admission webhooks serve. */
  for<U extends KubeObject>(resource: ResourceDescriptor<U>): WebhookBuilder<U> {
    const next = this as unknown as WebhookBuilder<U>;
    next.#resource = resource;
    return next;
  }

  /** Sets defaults on CREATE and UPDATE; the changes are answered as a JSON patch. */
  defaulter(fn: Defaulter<T>): this {
    this.#defaulter = fn;
    return this;
  }

  /** Validates CREATE, UPDATE and DELETE, each only if its function is given. */
  validator(v: Validator<T>): this {
    this.#validator = v;
    return this;
  }

  /** Serves the conversion of the kind at `/convert` (the CRD's `spec.conversion` points there). */
  conversion(c: Conversion): this {
    this.#conversion = c;
    return this;
  }

  /**
   * What the manifests declare: `None` (default), or `NoneOnDryRun` for webhooks with side effects
   * that they skip when `ctx.dryRun` is true.
   */
  sideEffects(s: 'None' | 'NoneOnDryRun'): this {
    this.#sideEffects = s;
    return this;
  }

  /** Registers the webhooks on the manager's webhook server. */
  complete(): void {
    const r = this.#resource;
    if (!r) throw new InvalidOptionError('webhookManagedBy.for', 'the kind is required: call for(resource)');
    if (!this.#defaulter && !this.#validator && !this.#conversion)
      throw new InvalidOptionError('webhookManagedBy', 'nothing to serve: give a defaulter, a validator or a conversion');
    if (this.#conversion && (this.#conversion.group !== r.group || this.#conversion.kind !== r.kind))
      throw new InvalidOptionError(
        'webhookManagedBy.conversion',
        `converts ${this.#conversion.group} ${this.#conversion.kind}, not ${r.group} ${r.kind}`,
      );
    const server = webhookServerFor(this.#mgr);
    for (const path of [this.#defaulter && mutatePath(r), this.#validator && validatePath(r)]) {
      if (path && server.serves(path)) throw new InvalidOptionError('webhookManagedBy', `a webhook is already served at ${path}`);
    }
    const c = this.#conversion;
    if (c && server.conversions().some((x) => x.group === c.group && x.kind === c.kind))
      throw new InvalidOptionError('webhookManagedBy.conversion', `a conversion of ${c.group} ${c.kind} is already registered`);
    const base = { group: r.group, version: r.version, plural: r.plural, namespaced: r.namespaced, sideEffects: this.#sideEffects };
    if (this.#defaulter) {
      server.registerAdmission(
        { ...base, type: 'mutating', path: mutatePath(r), operations: ['CREATE', 'UPDATE'] },
        defaultingHandler(r, this.#defaulter),
      );
    }
    const v = this.#validator;
    if (v) {
      const operations = (['CREATE', 'UPDATE', 'DELETE'] as const).filter((op) =>
        op === 'CREATE' ? v.create : op === 'UPDATE' ? v.update : v.delete,
      );
      server.registerAdmission({ ...base, type: 'validating', path: validatePath(r), operations }, validatingHandler(r, v));
    }
    if (this.#conversion) server.registerConversion(this.#conversion);
  }
}

/** Starts a webhook builder: `webhookManagedBy(mgr).for(WebApp).defaulter(fn).validator({ create }).complete()`. */
export function webhookManagedBy(mgr: Manager): WebhookBuilder {
  return new WebhookBuilder(mgr);
}
