/**
 * Version conversion of one custom kind, hub and spoke as in controller-runtime: one version is the
 * hub, every other version (a spoke) converts to and from it, so n versions need 2(n-1) functions and
 * any version reaches any other through the hub. Invariants: a converted object always carries the
 * target `apiVersion` and the kind; its metadata is the source's (the API server refuses any other
 * change), except labels and annotations a converter sets, which is where a lossless round trip keeps
 * fields an older version has no place for.
 */
import { InvalidOptionError, jsonEqual, parseGroupVersion, type KubeObject, type ResourceDescriptor } from '../meta/index.js';

/** One spoke: its descriptor and its two converters (each gets a copy it may change); make one with `spoke`. */
export interface Spoke {
  readonly resource: ResourceDescriptor;
  readonly toHub: (obj: KubeObject) => KubeObject;
  readonly fromHub: (hub: KubeObject) => KubeObject;
}

/** The conversions of one kind: the hub and its spokes, by version. */
export interface Conversion {
  readonly group: string;
  readonly kind: string;
  readonly hub: ResourceDescriptor;
  readonly spokes: ReadonlyMap<string, Spoke>;
  /** Every version this conversion knows, the hub first. */
  readonly versions: readonly string[];
}

/** A typed spoke: `spoke(WebAppV1alpha1, { toHub: (old) => ..., fromHub: (v1) => ... })`. */
export function spoke<Hub extends KubeObject, S extends KubeObject>(
  resource: ResourceDescriptor<S>,
  converters: { toHub(obj: S): Hub; fromHub(hub: Hub): S },
): Spoke {
  return {
    resource: resource as ResourceDescriptor,
    toHub: (obj) => converters.toHub(obj as S),
    fromHub: (hub) => converters.fromHub(hub as Hub),
  };
}

/** The conversions of the hub's kind. Every spoke must be the same group and kind, each version once. */
export function defineConversion<Hub extends KubeObject>(def: { hub: ResourceDescriptor<Hub>; spokes: readonly Spoke[] }): Conversion {
  const hub = def.hub as ResourceDescriptor;
  const spokes = new Map<string, Spoke>();
  def.spokes.forEach((s, i) => {
    const r = s.resource;
    if (r.group !== hub.group || r.kind !== hub.kind)
      throw new InvalidOptionError(`spokes[${i}]`, `${r.apiVersion} ${r.kind} is not a version of ${hub.group} ${hub.kind}`);
    if (r.version === hub.version || spokes.has(r.version))
      throw new InvalidOptionError(`spokes[${i}]`, `version ${r.version} is declared twice`);
    spokes.set(r.version, s);
  });
  return Object.freeze({ group: hub.group, kind: hub.kind, hub, spokes, versions: [hub.version, ...spokes.keys()] });
}

/** Converts `obj` (any version of the conversion's kind) to `version`; an unknown version or kind throws. */
export function convertObject(conversion: Conversion, obj: KubeObject, version: string): KubeObject {
  const from = versionOf(conversion, obj);
  if (!conversion.versions.includes(version)) throw new InvalidOptionError('version', `${conversion.kind} has no version ${version}`);
  const source = structuredClone(obj);
  if (from === version) return source;
  const hubObj = from === conversion.hub.version ? source : conversion.spokes.get(from)!.toHub(source);
  const out = version === conversion.hub.version ? hubObj : conversion.spokes.get(version)!.fromHub(structuredClone(hubObj));
  const { labels, annotations } = out.metadata ?? {};
  return {
    ...out,
    apiVersion: conversion.group ? `${conversion.group}/${version}` : version,
    kind: conversion.kind,
    metadata: {
      ...obj.metadata,
      ...(labels !== undefined ? { labels } : {}),
      ...(annotations !== undefined ? { annotations } : {}),
    },
  };
}

/**
 * `obj` converted to `through` and back, for tests of losslessness: `assert.deepEqual(roundTrip(c, v1alpha1Obj), v1alpha1Obj)`.
 * `through` defaults to the hub; a hub object must name the spoke to go through.
 */
export function roundTrip(conversion: Conversion, obj: KubeObject, through?: string): KubeObject {
  const from = versionOf(conversion, obj);
  const via = through ?? conversion.hub.version;
  if (via === from) throw new InvalidOptionError('through', `a round trip of a ${from} object needs another version to go through`);
  return convertObject(conversion, convertObject(conversion, obj, via), from);
}

/** Whether every object survives a round trip through every other version (a quick property for tests). */
export function isLossless(conversion: Conversion, obj: KubeObject): boolean {
  const from = versionOf(conversion, obj);
  return conversion.versions.filter((v) => v !== from).every((v) => jsonEqual(roundTrip(conversion, obj, v), obj));
}

function versionOf(conversion: Conversion, obj: KubeObject): string {
  const gv = obj.apiVersion ? parseGroupVersion(obj.apiVersion) : { group: '', version: '' };
  if (gv.group !== conversion.group || obj.kind !== conversion.kind || !conversion.versions.includes(gv.version)) {
    throw new InvalidOptionError(
      'object',
      `${obj.apiVersion ?? '?'} ${obj.kind ?? '?'} is not a version of ${conversion.group} ${conversion.kind} (${conversion.versions.join(', ')})`,
    );
  }
  return gv.version;
}
