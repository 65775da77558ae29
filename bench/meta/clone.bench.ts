// clone vs structuredClone vs JSON round trip on realistic 2–4 KiB objects (a Deployment with
// managedFields and status, a ConfigMap holding a config file), measured side by side in one process:
// rounds interleave the three so that JIT warm-up and GC pressure hit all of them alike, and each
// figure is the median of the rounds. Also times deepFreeze on fresh and already frozen objects.
// Prints ratios last. Run: node scripts/run-bench.mjs meta/clone
import { deepStrictEqual } from 'node:assert';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { clone, deepFreeze } from 'kube-converge/meta';

const ts = '2026-01-02T03:04:05Z';
const deployment: Deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'storefront-web',
    namespace: 'shop',
    uid: '6f1c0a3e-9b7d-4c2e-8a51-2d3f4e5a6b7c',
    resourceVersion: '48213977',
    generation: 7,
    creationTimestamp: ts,
    labels: { app: 'storefront', tier: 'web', 'app.kubernetes.io/name': 'storefront', 'app.kubernetes.io/managed-by': 'converge' },
    annotations: { 'deployment.kubernetes.io/revision': '5', 'converge.dev/config-hash': '9f2c1e7a4b5d6c3e' },
    ownerReferences: [
      {
        apiVersion: 'shop.example.com/v1',
        kind: 'Storefront',
        name: 'main',
        uid: '0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
    managedFields: [
      {
        manager: 'storefront-controller',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: ts,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {}, 'f:tier': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': {} } } } },
          },
        },
      },
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: ts,
        fieldsType: 'FieldsV1',
        subresource: 'status',
        fieldsV1: { 'f:status': { 'f:availableReplicas': {}, 'f:conditions': {}, 'f:observedGeneration': {}, 'f:readyReplicas': {} } },
      },
    ],
  },
  spec: {
    replicas: 3,
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
    selector: { matchLabels: { app: 'storefront', tier: 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      metadata: {
        labels: { app: 'storefront', tier: 'web' },
        annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' },
      },
      spec: {
        serviceAccountName: 'storefront',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
        securityContext: { runAsNonRoot: true, runAsUser: 10001, fsGroup: 10001 },
        containers: [
          {
            name: 'web',
            image: 'registry.example.com/shop/storefront:2.14.3',
            imagePullPolicy: 'IfNotPresent',
            args: ['--listen=:8080', '--metrics=:9090', '--log-format=json'],
            ports: [
              { name: 'http', containerPort: 8080, protocol: 'TCP' },
              { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
            ],
            env: [
              { name: 'SHOP_REGION', value: 'eu-west-1' },
              { name: 'SHOP_DB_URL', valueFrom: { secretKeyRef: { name: 'storefront-db', key: 'url' } } },
              { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            ],
            resources: { limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '250m', memory: '256Mi' } },
            readinessProbe: { httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 5, failureThreshold: 3 },
            livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 10, periodSeconds: 10 },
            volumeMounts: [
              { name: 'config', mountPath: '/etc/storefront', readOnly: true },
              { name: 'cache', mountPath: '/var/cache/storefront' },
            ],
          },
        ],
        volumes: [
          { name: 'config', configMap: { name: 'storefront-config' } },
          { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
        ],
      },
    },
  },
  status: {
    observedGeneration: 7,
    replicas: 3,
    updatedReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    conditions: [
      {
        type: 'Available',
        status: 'True',
        lastUpdateTime: ts,
        lastTransitionTime: ts,
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
      },
      {
        type: 'Progressing',
        status: 'True',
        lastUpdateTime: ts,
        lastTransitionTime: ts,
        reason: 'NewReplicaSetAvailable',
        message: 'ReplicaSet "storefront-web-7d9f8c6b5" has successfully progressed.',
      },
    ],
  },
};

const configMap: ConfigMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'storefront-config',
    namespace: 'shop',
    uid: '1e2d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b',
    resourceVersion: '48213001',
    creationTimestamp: ts,
    labels: { app: 'storefront', 'app.kubernetes.io/managed-by': 'converge' },
  },
  data: {
    'storefront.yaml': Array.from({ length: 40 }, (_, i) => `feature_${i}:\n  enabled: ${i % 2 === 0}\n  rollout: ${i * 5}%\n`).join(''),
    LOG_LEVEL: 'info',
    REGION: 'eu-west-1',
    CACHE_TTL: '300s',
    MAX_CONNECTIONS: '256',
  },
};

const candidates: [string, (o: unknown) => unknown][] = [
  ['clone', clone],
  ['structuredClone', (o) => structuredClone(o)],
  ['JSON round trip', (o) => JSON.parse(JSON.stringify(o))],
];

for (const [name, fn] of candidates) {
  deepStrictEqual(fn(deployment), deployment, `${name} must copy the Deployment exactly`);
  deepStrictEqual(fn(configMap), configMap, `${name} must copy the ConfigMap exactly`);
}

let sink = 0;
function opsPerSec(fn: (o: unknown) => unknown, obj: unknown, iterations: number): number {
  const t = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) sink += (fn(obj) as { kind: string }).kind.length;
  return iterations / (Number(process.hrtime.bigint() - t) / 1e9);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const ROUNDS = 9;
const ITER = 20_000;
const results = new Map<string, number>();
for (const [label, obj] of [
  ['Deployment', deployment],
  ['ConfigMap', configMap],
] as const) {
  const samples = new Map<string, number[]>(candidates.map(([n]) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of candidates) samples.get(name)!.push(opsPerSec(fn, obj, ITER));
  }
  console.log(`${label} (${JSON.stringify(obj).length} bytes as JSON)`);
  for (const [name] of candidates) {
    const m = median(samples.get(name)!);
    results.set(`${label}/${name}`, m);
    console.log(`  ${name.padEnd(16)} ${Math.round(m).toLocaleString('en-US').padStart(10)} ops/s`);
  }
}

// deepFreeze: fresh objects (what a cache does on every event) and repeated freezes (must be O(1)).
const fresh = Array.from({ length: ITER }, () => clone(deployment));
let t = process.hrtime.bigint();
for (const o of fresh) deepFreeze(o);
const freezeFresh = ITER / (Number(process.hrtime.bigint() - t) / 1e9);
t = process.hrtime.bigint();
for (const o of fresh) deepFreeze(o);
const freezeAgain = ITER / (Number(process.hrtime.bigint() - t) / 1e9);
console.log(
  `deepFreeze Deployment: fresh ${Math.round(freezeFresh).toLocaleString('en-US')} ops/s, already frozen ${Math.round(freezeAgain).toLocaleString('en-US')} ops/s`,
);
// `sink` reads every copy, so the JIT cannot drop the work being timed.
if (sink === 0) throw new Error('no work was measured');

for (const label of ['Deployment', 'ConfigMap']) {
  const ours = results.get(`${label}/clone`)!;
  console.log(
    `${label}: clone vs structuredClone: ${(ours / results.get(`${label}/structuredClone`)!).toFixed(1)}x faster; ` +
      `clone vs JSON round trip: ${(ours / results.get(`${label}/JSON round trip`)!).toFixed(1)}x faster`,
  );
}
