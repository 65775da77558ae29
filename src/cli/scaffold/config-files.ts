/**
 * The kustomize layout of a scaffolded operator, laid out as kubebuilder lays it out: a base per
 * concern under config/ (crd, rbac, manager, samples) and config/default, the overlay that deploys
 * everything into the operator's namespace with its metrics Service. `converge create api` adds each
 * new kind's CRD and sample to the lists of config/crd and config/samples.
 *
 * Invariant: `kubectl apply -k config/default` works on an empty cluster the first time: the
 * Namespace is one of its resources, and kustomize orders Namespaces and CRDs before the objects in
 * them, so nothing is applied into a namespace that does not exist yet.
 */
import { WiringError } from './wiring.js';
import type { KindNames, ProjectNames } from './names.js';
import type { ScaffoldFile } from './write-files.js';

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

export const CRD_KUSTOMIZATION = 'config/crd/kustomization.yaml';
export const SAMPLES_KUSTOMIZATION = 'config/samples/kustomization.yaml';

/** The file names the kind's CRD and sample are written under (see starter-crd.ts and kind-files.ts). */
export const crdFileOf = (k: KindNames): string => `${k.group}_${k.plural}.yaml`;
export const sampleFileOf = (k: KindNames): string => `${k.group}_${k.version}_${k.file}.yaml`;

const list = (items: readonly string[]): string => items.map((i) => `  - ${i}\n`).join('');

export function configFiles(p: ProjectNames, first: KindNames): ScaffoldFile[] {
  return [
    {
      path: CRD_KUSTOMIZATION,
      content: `# The CRDs: npm run install-crds applies them; converge create api adds each new kind's here.\n${KUSTOMIZATION}resources:\n${list([`bases/${crdFileOf(first)}`])}`,
    },
    {
      path: SAMPLES_KUSTOMIZATION,
      content: `# One object per kind to try the operator with: kubectl apply -k config/samples.\n${KUSTOMIZATION}resources:\n${list([sampleFileOf(first)])}`,
    },
    {
      path: 'config/rbac/kustomization.yaml',
      content: `# What the operator runs as and may do. role.yaml is generated (npm run rbac); the rest is written once.\n${KUSTOMIZATION}resources:\n${list(['service-account.yaml', 'role.yaml', 'leader-election.yaml'])}`,
    },
    {
      path: 'config/rbac/service-account.yaml',
      content: `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: ${p.name}\n  namespace: ${p.namespace}\n`,
    },
    {
      path: 'config/manager/kustomization.yaml',
      content: `${KUSTOMIZATION}resources:\n${list(['namespace.yaml', 'manager.yaml'])}images:\n  - name: ${p.name}\n    newTag: 0.1.0\n`,
    },
    {
      path: 'config/manager/namespace.yaml',
      content: `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${p.namespace}\n  labels:\n    app.kubernetes.io/name: ${p.name}\n`,
    },
    {
      path: 'config/default/kustomization.yaml',
      content: `# Everything the operator needs, in its namespace: npm run deploy applies it, npm run undeploy deletes it.
# kustomize puts the Namespace and the CRDs first, so one apply works on an empty cluster.
# Change the image with: (cd config/manager && kustomize edit set image ${p.name}=<registry>/${p.name}:<tag>)
${KUSTOMIZATION}namespace: ${p.namespace}
resources:
${list(['../crd', '../rbac', '../manager', 'metrics-service.yaml'])}`,
    },
    {
      path: 'config/default/metrics-service.yaml',
      content: `# The operator's /metrics (plain HTTP on the "metrics" port) for Prometheus to scrape.
apiVersion: v1
kind: Service
metadata:
  name: ${p.name}-metrics
  namespace: ${p.namespace}
  labels:
    app.kubernetes.io/name: ${p.name}
spec:
  selector:
    app.kubernetes.io/name: ${p.name}
  ports:
    - name: metrics
      port: 8080
      targetPort: metrics
      protocol: TCP
`,
    },
  ];
}

/** `text` (a kustomization.yaml) with `resource` added at the end of its `resources:` list. */
export function addResource(text: string, resource: string, file: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l === 'resources:');
  if (at === -1) throw new WiringError(`${file} has no "resources:" list, so the new kind cannot be added to it`);
  let end = at + 1;
  while (end < lines.length && lines[end]!.startsWith('  - ')) end++;
  if (lines.slice(at + 1, end).includes(`  - ${resource}`)) return text;
  lines.splice(end, 0, `  - ${resource}`);
  return lines.join('\n');
}
