/**
 * The files `converge create webhook` writes for a kind: its webhook code (a defaulter, a validator, a
 * conversion between its stored version and a new spoke version, each when asked for), the test that
 * runs them under TestEnv, and, for the project's first webhook, what serves them in a cluster as
 * kubebuilder lays it out: config/webhook (the Service, the webhook configurations), config/certmanager
 * (a self-signed Issuer and the serving Certificate, whose Secret the Deployment mounts where the
 * webhook server reads its certificate, and whose CA cert-manager injects into the configurations
 * and the CRD). Invariant: config/webhook/manifests.yaml declares exactly the webhooks the code
 * registers (same paths, operations, names), and the generated test fails when the two drift apart.
 */
import { parseAllDocuments, stringify } from 'yaml';
import { webhookConfigurations, type AdmissionRegistration, type WebhookTarget } from '../../webhook/index.js';
import { local } from './local-import.js';
import type { KindNames } from './names.js';
import type { OperatorIdentity } from './rbac-files.js';
import { CRD_DIR, capitalized, type SpokePlan } from './starter-crd.js';
import type { ScaffoldFile } from './write-files.js';
import { WiringError } from './wiring.js';

/** Which webhooks a kind gets; `spoke` is the version a conversion adds. */
export interface WebhookChoice {
  defaulting: boolean;
  validation: boolean;
  spoke?: string;
}

export const WEBHOOK_MANIFESTS = 'config/webhook/manifests.yaml';
export const WEBHOOK_KUSTOMIZATION = 'config/webhook/kustomization.yaml';
export const DEFAULT_KUSTOMIZATION = 'config/default/kustomization.yaml';
export const MANAGER_WEBHOOK_PATCH = 'manager-webhook-patch.yaml';

/** Names inside the operator's namespace, as kubebuilder's (which prefixes them with the project when it deploys). */
const SERVICE = 'webhook-service';
const CERTIFICATE = 'serving-cert';
const ISSUER = 'selfsigned-issuer';
const CERT_SECRET = 'webhook-server-cert';
/** Where controller-runtime's webhook server, and so ours, reads tls.crt and tls.key by default. */
const CERT_DIR = '/tmp/k8s-webhook-server/serving-certs';

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

const serviceOf = (p: OperatorIdentity) => ({ namespace: p.namespace, name: SERVICE });
const caFromOf = (p: OperatorIdentity): string => `${p.namespace}/${CERTIFICATE}`;

export const webhookFileOf = (k: KindNames): string => `src/webhooks/${k.file}.ts`;
export const webhookTestOf = (k: KindNames): string => `test/${k.file}.webhook.test.ts`;

/** The spoke plan of a conversion: the new version, behind the operator's webhook Service. */
export function spokePlan(p: OperatorIdentity, spoke: string): SpokePlan {
  return { spoke, service: serviceOf(p), caFrom: caFromOf(p) };
}

/** The kind's webhook code and its test. */
export function webhookFiles(p: OperatorIdentity, k: KindNames, w: WebhookChoice): ScaffoldFile[] {
  return [
    { path: webhookFileOf(k), content: webhookCode(k, w) },
    { path: webhookTestOf(k), content: webhookTest(p, k, w) },
  ];
}

/**
 * What the admission webhooks of `k` register, as the builder registers them: controller-runtime's
 * paths, CREATE and UPDATE for the defaulter and for the validator (whose `delete` is left out).
 */
export function admissionRegistrations(k: KindNames, w: WebhookChoice): AdmissionRegistration[] {
  const suffix = `${k.group.replaceAll('.', '-')}-${k.version}-${k.kind.toLowerCase()}`;
  const base = { group: k.group, version: k.version, plural: k.plural, namespaced: k.namespaced, sideEffects: 'None' as const };
  const operations = ['CREATE', 'UPDATE'] as const;
  return [
    ...(w.defaulting ? [{ ...base, type: 'mutating' as const, path: `/mutate-${suffix}`, operations }] : []),
    ...(w.validation ? [{ ...base, type: 'validating' as const, path: `/validate-${suffix}`, operations }] : []),
  ];
}

type Configuration = { kind: string; metadata: { name: string }; webhooks: { name: string }[] };

/**
 * config/webhook/manifests.yaml with `k`'s admission webhooks: `current` (the file as it is, if any)
 * keeps its webhooks, a webhook of the same name is replaced, and each configuration is written once.
 */
export function webhookManifests(current: string | undefined, p: OperatorIdentity, k: KindNames, w: WebhookChoice): string {
  const target: WebhookTarget = { service: serviceOf(p) };
  const added = webhookConfigurations(admissionRegistrations(k, w), { name: p.name, target });
  const existing = current === undefined ? [] : parseAllDocuments(current).map((d) => d.toJS() as Configuration | null);
  const configurations: Configuration[] = [];
  for (const [kind, suffix, fresh] of [
    ['MutatingWebhookConfiguration', 'mutating', added.mutating],
    ['ValidatingWebhookConfiguration', 'validating', added.validating],
  ] as const) {
    const before = existing.find((c) => c?.kind === kind);
    const webhooks = [...(before?.webhooks ?? [])];
    for (const hook of fresh?.webhooks ?? []) {
      const at = webhooks.findIndex((h) => h.name === hook.name);
      webhooks.splice(at === -1 ? webhooks.length : at, at === -1 ? 0 : 1, hook);
    }
    if (webhooks.length === 0) continue;
    configurations.push({
      ...(fresh ?? before!),
      kind,
      metadata: {
        name: before?.metadata.name ?? `${p.name}-${suffix}-webhook-configuration`,
        // cert-manager writes the Certificate's CA into every webhook's caBundle.
        annotations: { 'cert-manager.io/inject-ca-from': caFromOf(p) },
      } as Configuration['metadata'],
      webhooks,
    });
  }
  const header = `# The admission webhooks of the operator, served by its manager behind the ${SERVICE} Service.
# converge create webhook adds each kind's; each kind's webhook test fails when this file and what
# the code registers disagree.
`;
  return header + configurations.map((c) => `---\n${stringify(c, { lineWidth: 0 })}`).join('');
}

/** The project's first webhook brings what serves any webhook in a cluster. */
export function webhookInfraFiles(p: OperatorIdentity): ScaffoldFile[] {
  const labels = `  labels:\n    app.kubernetes.io/name: ${p.name}\n`;
  return [
    {
      path: 'config/webhook/service.yaml',
      content: `# Where the API server reaches the webhooks: every replica of the operator serves them on port 9443.
apiVersion: v1
kind: Service
metadata:
  name: ${SERVICE}
  namespace: ${p.namespace}
${labels}spec:
  selector:
    app.kubernetes.io/name: ${p.name}
  ports:
    - name: webhook
      port: 443
      targetPort: webhook-server
      protocol: TCP
`,
    },
    {
      path: 'config/certmanager/kustomization.yaml',
      content: `# The webhook server's certificate, issued and renewed by cert-manager (install it in the cluster first).\n${KUSTOMIZATION}resources:\n  - certificate.yaml\n`,
    },
    {
      path: 'config/certmanager/certificate.yaml',
      content: `# A self-signed Issuer and the serving Certificate of ${SERVICE}. cert-manager keeps the key pair in the
# Secret ${CERT_SECRET}, which the Deployment mounts where the webhook server reads it (and reloads it
# when it is renewed), and injects the CA into the webhook configurations and converted CRDs.
apiVersion: cert-manager.io/v1
kind: Issuer
metadata:
  name: ${ISSUER}
  namespace: ${p.namespace}
spec:
  selfSigned: {}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: ${CERTIFICATE}
  namespace: ${p.namespace}
spec:
  dnsNames:
    - ${SERVICE}.${p.namespace}.svc
    - ${SERVICE}.${p.namespace}.svc.cluster.local
  issuerRef:
    kind: Issuer
    name: ${ISSUER}
  secretName: ${CERT_SECRET}
`,
    },
    {
      path: `config/default/${MANAGER_WEBHOOK_PATCH}`,
      content: `# The webhook server in the operator's Deployment: its port, and the serving certificate mounted
# where the server reads it (controller-runtime's default folder).
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${p.name}
  namespace: ${p.namespace}
spec:
  template:
    spec:
      containers:
        - name: operator
          ports:
            - name: webhook-server
              containerPort: 9443
              protocol: TCP
          volumeMounts:
            - name: webhook-certs
              mountPath: ${CERT_DIR}
              readOnly: true
      volumes:
        - name: webhook-certs
          secret:
            secretName: ${CERT_SECRET}
`,
    },
  ];
}

/** config/webhook/kustomization.yaml, listing the configurations when there are admission webhooks. */
export const webhookKustomization = (admission: boolean): string =>
  `# The webhooks: their Service, and the configurations that send admission requests to it.\n${KUSTOMIZATION}resources:\n  - service.yaml\n${admission ? '  - manifests.yaml\n' : ''}`;

/** `text` (a kustomization.yaml) with `patch` in its `patches:` list, which is added at the end when missing. */
export function addPatch(text: string, patch: string, file: string): string {
  const entry = `  - path: ${patch}`;
  const lines = text.split('\n');
  if (lines.includes(entry)) return text;
  const at = lines.findIndex((l) => l === 'patches:');
  if (at !== -1) {
    lines.splice(at + 1, 0, entry);
    return lines.join('\n');
  }
  if (lines.some((l) => l.startsWith('patches')))
    throw new WiringError(`${file} has a "patches" entry that is not a list; add ${patch} to it`);
  return `${text.endsWith('\n') ? text : `${text}\n`}patches:\n${entry}\n`;
}

function webhookCode(k: KindNames, w: WebhookChoice): string {
  const UPPER = k.kind.toUpperCase();
  const object = `${k.kind}Object`;
  const parts: string[] = [];
  const imports = new Set<string>(['webhookManagedBy']);
  const chain: string[] = [];
  if (w.defaulting) {
    chain.push(`.defaulter(default${k.kind})`);
    parts.push(`/** What a ${k.kind} created or updated with no message, or a blank one, says. */
export const DEFAULT_${UPPER}_MESSAGE = 'hello from the ${k.kind} defaulter';

/**
 * The defaulter: fills in what a ${k.kind} may leave out. It runs before the API server checks the
 * schema, so it sees the object as the client sent it: a field the type requires may still be missing.
 * Its changes go back to the API server as a JSON patch.
 */
export function default${k.kind}(obj: ${object}): void {
  const message = (obj.spec as Partial<${object}['spec']> | undefined)?.message;
  if (message === undefined || message.trim() === '') obj.spec = { ...obj.spec, message: DEFAULT_${UPPER}_MESSAGE };
}
`);
  }
  if (w.validation) {
    imports.add('deny').add('type ValidatorOutcome').add('type Validator');
    chain.push(`.validator(${k.file}Validator)`);
    parts.push(`/**
 * The longest name a ${k.kind} may have: its controller names the ${k.kind}'s ConfigMap \`<name>-${k.file}\`,
 * and an object name is at most 253 characters. The CRD's schema cannot say it; a validator can.
 */
export const MAX_${UPPER}_NAME = 253 - '-${k.file}'.length;

function validate${k.kind}(obj: ${object}): ValidatorOutcome {
  const name = obj.metadata.name ?? '';
  if (name.length <= MAX_${UPPER}_NAME) return undefined;
  const message = \`must be no more than \${MAX_${UPPER}_NAME} characters, so that its ConfigMap <name>-${k.file} is a valid name\`;
  return deny(\`metadata.name: \${message}\`, { causes: [{ field: 'metadata.name', reason: 'FieldValueTooLong', message }] });
}

/**
 * The validator: a denial is a value it returns (422 Invalid with the causes, which kubectl prints);
 * a throw is a bug, answered 500. Add \`delete\` to check deletions too (the manifests then need DELETE).
 */
export const ${k.file}Validator: Validator<${object}> = {
  create: (obj) => validate${k.kind}(obj),
  update: (_old, obj) => validate${k.kind}(obj),
};
`);
  }
  if (w.spoke !== undefined) {
    imports.add('defineConversion').add('spoke');
    chain.push(`.conversion(${k.file}Conversion)`);
    const spokeObject = `${k.kind}${capitalized(w.spoke)}Object`;
    parts.push(`type ${spokeObject} = ObjectOf<typeof ${k.kind}.versions.${w.spoke}>;

/**
 * The conversion, hub and spoke: ${k.version} (stored) is the hub, ${w.spoke} a spoke that converts to it and
 * back. The API server asks for it whenever a client reads or writes the version that is not stored.
 * Metadata is the source's whatever a converter returns (labels and annotations excepted: keep there
 * what a version has no field for).
 */
export const ${k.file}Conversion = defineConversion({
  hub: ${k.kind},
  spokes: [
    spoke(${k.kind}.versions.${w.spoke}, {
      toHub: (obj: ${spokeObject}): ${object} => ({ ...obj, spec: { message: obj.spec.text } }),
      fromHub: (hub: ${object}): ${spokeObject} => ({ ...hub, spec: { text: hub.spec.message } }),
    }),
  ],
});
`);
  }
  const what = [w.defaulting && 'defaulting', w.validation && 'validation', w.spoke !== undefined && `conversion to and from ${w.spoke}`]
    .filter(Boolean)
    .join(', ');
  return `/**
 * The webhooks of the ${k.kind} API (${k.group}/${k.version}):
 * ${what}.
 * The manager serves them over HTTPS on port 9443 (every replica, leader or not), and the API server
 * calls them as config/webhook/ and the CRD declare. test/${k.file}.webhook.test.ts runs them under
 * TestEnv, called by its API server.
 */
import type { Manager } from 'kube-converge/manager';
import type { ObjectOf } from 'kube-converge/meta';
import { ${[...imports].sort((a, b) => a.replace('type ', '').localeCompare(b.replace('type ', ''))).join(', ')} } from 'kube-converge/webhook';
import { ${k.kind} } from ${local(`../api/${k.file}.js`)};

type ${object} = ObjectOf<typeof ${k.kind}>;

${parts.join('\n')}
/** Registers the ${k.kind} webhooks on \`mgr\`'s webhook server. Call before \`mgr.start()\`. */
export function setup${k.kind}Webhook(mgr: Manager): void {
  webhookManagedBy(mgr)
    .for(${k.kind})
    ${chain.join('\n    ')}
    .complete();
}
`;
}

function webhookTest(p: OperatorIdentity, k: KindNames, w: WebhookChoice): string {
  const UPPER = k.kind.toUpperCase();
  const admission = w.defaulting || w.validation;
  const key = (name: string): string => (k.namespaced ? `{ namespace: 'default', name: ${name} }` : `{ name: ${name} }`);
  const own = [
    `setup${k.kind}Webhook`,
    ...(w.defaulting ? [`DEFAULT_${UPPER}_MESSAGE`] : []),
    ...(w.validation ? [`MAX_${UPPER}_NAME`] : []),
  ].sort();
  const tests: string[] = [];
  if (w.defaulting) {
    tests.push(`  it('gives a ${k.kind} created with a blank message the default one', async () => {
    const key = ${key(`'defaulted-${k.file}'`)};
    const created = await env.client.create(${k.kind}, { metadata: key, spec: { message: ' ' } });
    assert.equal(created.spec.message, DEFAULT_${UPPER}_MESSAGE);
    assert.equal((await env.client.get(${k.kind}, key)).spec.message, DEFAULT_${UPPER}_MESSAGE);
  });
`);
  }
  if (w.validation) {
    tests.push(`  it('refuses a ${k.kind} whose name leaves no room for its ConfigMap\\'s, with the validator\\'s message', async () => {
    // A valid object name (dot-separated labels of at most 63 characters) one character too long.
    const name = ['a', 'b', 'c', 'd'].map((c) => c.repeat(63)).join('.').slice(0, MAX_${UPPER}_NAME + 1).replace(/\\.$/, 'e');
    await assert.rejects(env.client.create(${k.kind}, { metadata: ${key('name')}, spec: { message: 'hi' } }), (err: Error) => {
      assert.ok(isInvalid(err), err.message);
      assert.match(err.message, new RegExp(\`metadata\\\\.name: must be no more than \${MAX_${UPPER}_NAME} characters\`));
      return true;
    });
    const fits = name.slice(0, MAX_${UPPER}_NAME).replace(/\\.$/, 'e');
    await env.client.create(${k.kind}, { metadata: ${key('fits')}, spec: { message: 'hi' } });
  });
`);
  }
  if (w.spoke !== undefined) {
    tests.push(`  it('reads a ${k.kind} written in ${w.spoke} back in ${k.version}, and the other way round, through the conversion webhook', async () => {
    const key = ${key(`'converted-${k.file}'`)};
    await env.client.create(${k.kind}.versions.${w.spoke}, { metadata: key, spec: { text: 'written as ${w.spoke}' } });
    assert.deepEqual((await env.client.get(${k.kind}, key)).spec, { message: 'written as ${w.spoke}' });
    await env.client.patch(${k.kind}, key, { spec: { message: 'changed in ${k.version}' } }, 'merge');
    const read = await env.client.get(${k.kind}.versions.${w.spoke}, key);
    assert.equal(read.apiVersion, '${k.group}/${w.spoke}');
    assert.deepEqual(read.spec, { text: 'changed in ${k.version}' });
  });
`);
  }
  if (admission) {
    tests.push(`  it('is declared in ${WEBHOOK_MANIFESTS} exactly as it is served', async () => {
    const declared = new Map<string, unknown>();
    for (const doc of parseAllDocuments(await readFile(MANIFESTS, 'utf8'))) {
      const webhooks = (doc.toJS() as { webhooks?: { name: string }[] } | null)?.webhooks ?? [];
      for (const webhook of webhooks) declared.set(webhook.name, webhook);
    }
    const served = webhookConfigurations(webhookServerFor(mgr).registrations(), { name: '${p.name}', target: { service: SERVICE } });
    const webhooks = [...(served.mutating?.webhooks ?? []), ...(served.validating?.webhooks ?? [])];
    assert.ok(webhooks.length > 0);
    for (const webhook of webhooks) assert.deepEqual(declared.get(webhook.name), webhook, \`\${webhook.name} in ${WEBHOOK_MANIFESTS}\`);
  });
`);
  }
  return `// The ${k.kind} webhooks against the in-process API server (no cluster), which calls them over HTTPS as
// ${admission ? `${WEBHOOK_MANIFESTS}${w.spoke !== undefined ? ' and the CRD declare' : ' declares'}` : 'the CRD declares'}. TestEnv points the API server at the
// manager's webhook server, which serves a certificate of TestEnv's own. \`npm test\` runs it after compiling, from the project's folder.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
${admission ? "import { readFile } from 'node:fs/promises';\nimport { parseAllDocuments } from 'yaml';\n" : ''}${w.validation ? "import { isInvalid } from 'kube-converge/client';\n" : ''}import type { Manager } from 'kube-converge/manager';
import { TestEnv } from 'kube-converge/testing';
${admission ? "import { webhookConfigurations, webhookServerFor } from 'kube-converge/webhook';\n" : ''}import { ${k.kind} } from ${local(`../src/api/${k.file}.js`)};
import { ${own.join(', ')} } from ${local(`../src/webhooks/${k.file}.js`)};
${admission ? `\nconst MANIFESTS = '${WEBHOOK_MANIFESTS}';\nconst SERVICE = { namespace: '${p.namespace}', name: '${SERVICE}' };\n` : ''}
let env: TestEnv;
let mgr: Manager;
let running: Promise<void>;

before(async () => {
  env = await TestEnv.start({ crds: ['${CRD_DIR}'], webhooks: { configurations: [${admission ? 'MANIFESTS' : ''}] } });
  mgr = await env.newManager();
  setup${k.kind}Webhook(mgr);
  running = mgr.start();
  await mgr.elected(); // the webhook server listens from here on
});

after(async () => {
  await mgr.shutdown();
  await running;
  await env.stop();
});

describe('the ${k.kind} webhooks', () => {
${tests.join('\n')}});
`;
}
