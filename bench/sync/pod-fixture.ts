/**
 * Pods shaped like the ones a cluster returns for a Deployment's replicas: owner reference to a
 * ReplicaSet, the pod-template-hash label, two containers with probes, env, resources and mounts,
 * the projected service-account volume, default tolerations, and (written separately, by "kubelet")
 * a running status. The API server adds managedFields for both writers, as a real one does, which
 * brings each Pod to roughly 3.5 KiB of JSON. Invariant: for a given index, the same Pod every run.
 */
import { seededRandom } from '../watch-fixture.js';

const APPS = ['checkout', 'catalog', 'payments', 'search', 'accounts', 'recommendations', 'gateway', 'notifications'];

export function podSpec(i: number, namespace: string): Record<string, unknown> {
  const r = seededRandom(1000 + i);
  const app = APPS[i % APPS.length]!;
  const hash = `${r.hex(9)}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${app}-${hash}-${r.hex(5)}`,
      namespace,
      generateName: `${app}-${hash}-`,
      labels: { app, 'app.kubernetes.io/part-of': 'shop', 'pod-template-hash': hash, tier: i % 3 === 0 ? 'frontend' : 'backend' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-30T08:00:00Z', 'prometheus.io/scrape': 'true' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-${hash}`, uid: r.uid(), controller: true, blockOwnerDeletion: true },
      ],
    },
    spec: {
      containers: [
        {
          name: app,
          image: `registry.example.com/shop/${app}:1.${i % 7}.${i % 13}`,
          imagePullPolicy: 'IfNotPresent',
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
            { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
            { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: `${app}-db`, key: 'url' } } },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
          livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1 },
          readinessProbe: { httpGet: { path: '/readyz', port: 'http', scheme: 'HTTP' }, periodSeconds: 5, timeoutSeconds: 1 },
          volumeMounts: [{ name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
        {
          name: 'envoy',
          image: 'registry.example.com/mesh/envoy:1.31.2',
          imagePullPolicy: 'IfNotPresent',
          resources: { requests: { cpu: '50m', memory: '64Mi' } },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      volumes: [
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            ],
          },
        },
      ],
      nodeName: `node-${i % 40}`,
      serviceAccountName: 'default',
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      enableServiceLinks: true,
      priority: 0,
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    },
  };
}

export function podStatus(i: number): Record<string, unknown> {
  const r = seededRandom(9000 + i);
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const at = '2026-11-30T08:00:12Z';
  const container = (name: string, image: string) => ({
    name,
    image,
    imageID: `${image}@sha256:${r.hex(64)}`,
    containerID: `containerd://${r.hex(64)}`,
    ready: true,
    started: true,
    restartCount: 0,
    state: { running: { startedAt: at } },
  });
  return {
    phase: 'Running',
    conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
      type,
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: at,
    })),
    hostIP: `192.168.${i % 40}.10`,
    hostIPs: [{ ip: `192.168.${i % 40}.10` }],
    podIP: ip,
    podIPs: [{ ip }],
    startTime: '2026-11-30T08:00:05Z',
    qosClass: 'Burstable',
    containerStatuses: [
      container(APPS[i % APPS.length]!, 'registry.example.com/shop/app:1.0.0'),
      container('envoy', 'registry.example.com/mesh/envoy:1.31.2'),
    ],
  };
}
