/**
 * Every version-dependent fact the server honours, in one table: what changed, in which minor, the
 * public source that says so, and where the server consults it. A fact is a list of stages, as
 * Kubernetes' own versioned feature specs write a gate's default: each stage names the minor from
 * which the behaviour is on (or off again) by default. Invariant: a behaviour that differs between
 * supported minors is decided here and nowhere else; a gate that is off by default counts as off, as
 * on a plain cluster. `docs/versions.md` is generated from this table.
 */

/** From `minor` on (until the next stage), the behaviour is on or off by default. */
export interface Stage {
  readonly minor: number;
  readonly on: boolean;
}

/** One version-dependent behaviour. */
export interface VersionChange {
  /** What clients see while it is on. */
  readonly on: string;
  /** What they see while it is off. */
  readonly off: string;
  /** The default of each stretch of minors, oldest first; minors before the first stage are off. */
  readonly stages: readonly Stage[];
  /** A public source for the stages: the KEP, or the Kubernetes source of the gate's defaults. */
  readonly source: string;
  /** Where this server consults the fact. */
  readonly consultedBy: string;
  /** Where the server's stages differ from a plain cluster's defaults, and why. */
  readonly note?: string;
}

const on = (minor: number): Stage => ({ minor, on: true });
const off = (minor: number): Stage => ({ minor, on: false });

/** The table, one row per behaviour. */
export const VERSION_CHANGES = {
  mutatingAdmissionPolicy: {
    on: '`admissionregistration.k8s.io/v1` MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding are served and enforced',
    off: 'not served: v1alpha1 (1.32) and v1beta1 (1.34) are off by default, behind the MutatingAdmissionPolicy gate and `--runtime-config`',
    stages: [off(32), off(34), on(36)],
    source: 'https://kep.k8s.io/3962',
    consultedBy: 'the registry serves the two kinds only while on (discovery, OpenAPI and requests follow; a request is a 404)',
  },
  podGeneration: {
    on: 'Pod `metadata.generation` is 1 on create and bumped by every spec change (not feature-gated)',
    off: 'Pod `metadata.generation` is left unset',
    stages: [on(33)],
    source: 'https://kep.k8s.io/5067 (kubernetes/kubernetes#130181, in 1.33)',
    consultedBy: 'the Pod strategy on create and update',
  },
  watchList: {
    on: 'watch with `sendInitialEvents` streams the current state, then the `k8s.io/initial-events-end` bookmark',
    off: 'watch with `sendInitialEvents` is refused, 422 `sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled` (client-go falls back to list then watch)',
    stages: [off(27), on(32), off(33), on(34)],
    source: 'https://kep.k8s.io/3157, defaults in https://github.com/kubernetes/apiserver/blob/master/pkg/features/kube_features.go',
    consultedBy: 'list and watch option validation',
  },
  shardedListAndWatch: {
    on: 'list and watch take `shardSelector` and return only the objects of that shard, lists with `metadata.shardInfo`',
    off: '`shardSelector` is an unknown parameter and ignored: every object is returned, with no `metadata.shardInfo`',
    stages: [on(36)],
    source: 'https://kep.k8s.io/5866',
    consultedBy: 'list and watch option parsing',
    note: 'alpha in 1.36, where kube-apiserver serves it only with the ShardedListAndWatch gate on; this server serves it in 1.36 without one',
  },
  versionEmulationFields: {
    on: '`/version` also reports `emulationMajor`/`emulationMinor` (the version itself) and `minCompatibilityMajor`/`minCompatibilityMinor` (the minor before)',
    off: '`/version` reports `major`, `minor`, `gitVersion` and build fields only',
    stages: [on(33)],
    source: 'https://kep.k8s.io/4330',
    consultedBy: 'the `/version` document',
  },
  crdObservedGeneration: {
    on: "the CRD's `NamesAccepted` and `Established` conditions carry `observedGeneration`, the generation they were written for",
    off: 'the field is not in the API: kube-apiserver drops it from CRD conditions',
    stages: [off(35), on(36)],
    source: 'https://kep.k8s.io/4192 (CRDObservedGenerationTracking: beta off in 1.35, on in 1.36)',
    consultedBy: "the CRD strategy, writing the naming and establishing controllers' conditions",
    note: 'kube-apiserver 1.36 accepts the field but its controllers do not fill it yet; this server fills it',
  },
  crdFieldSelectors: {
    on: 'CRD `selectableFields` are accepted and serve field selectors on custom resources',
    off: 'dropped from CRDs on write',
    stages: [off(30), on(31)],
    source: 'https://kep.k8s.io/4358 (beta, on by default, in 1.31; GA in 1.32)',
    consultedBy: 'nothing: on in every supported minor',
  },
  crdValidationRatcheting: {
    on: 'an update may keep a custom resource value that no longer validates, as long as it leaves it unchanged',
    off: 'every value is validated on every update',
    stages: [off(28), on(30)],
    source: 'https://kep.k8s.io/4008 (beta, on by default, in 1.30; GA in 1.33)',
    consultedBy: 'nothing: on in every supported minor',
  },
} as const satisfies Record<string, VersionChange>;

export type VersionChangeName = keyof typeof VERSION_CHANGES;

/** Whether a behaviour is on by default in a minor. */
export function isOn(name: VersionChangeName, minor: number): boolean {
  let state = false;
  for (const stage of VERSION_CHANGES[name].stages) if (stage.minor <= minor) state = stage.on;
  return state;
}

/** Built-in group-versions of resources served only while a change is on (everything else is served in every supported minor). */
export const VERSIONED_APIS: readonly { group: string; version: string; plurals: readonly string[]; change: VersionChangeName }[] = [
  {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    plurals: ['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings'],
    change: 'mutatingAdmissionPolicy',
  },
];

/** Whether a built-in resource is served at a group-version in a minor. */
export function servesBuiltin(group: string, version: string, plural: string, minor: number): boolean {
  const row = VERSIONED_APIS.find((r) => r.group === group && r.version === version && r.plurals.includes(plural));
  return row === undefined || isOn(row.change, minor);
}
