/**
 * Webhooks for `TestEnv`, as envtest installs them: the webhook configurations (objects or YAML
 * files, such as the manifests written for a cluster) are installed with every `clientConfig`
 * pointed at a local HTTPS endpoint — a loopback port chosen at start, a certificate signed by the
 * process's CA written to a temporary folder, that CA as the `caBundle` — and each manager the
 * environment makes serves its webhooks there; so does every CRD installed with a conversion
 * webhook. Invariant: a configuration's or CRD's Service reference keeps its path and becomes that
 * URL, so the manifests deployed to a cluster are the ones tested.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from 'kubernetes-types/admissionregistration/v1.js';
import type { CustomResourceDefinition } from './crds.js';
import { parseAllDocuments } from 'yaml';
import { InvalidOptionError, defineResource, type KubeObject } from '../meta/index.js';
import { servingMaterial } from '../apiserver/internal.js';
import type { RestClient } from '../client/index.js';
import type { WebhookServerOptions } from '../webhook/index.js';

/** A Mutating- or ValidatingWebhookConfiguration object, or a YAML/JSON file of them (other kinds in it are skipped). */
export type WebhookConfigurationSource = MutatingWebhookConfiguration | ValidatingWebhookConfiguration | string;

/** Options of `TestEnv.start({ webhooks })`. */
export interface TestEnvWebhooks {
  configurations: readonly WebhookConfigurationSource[];
}

const KINDS = {
  MutatingWebhookConfiguration: 'mutatingwebhookconfigurations',
  ValidatingWebhookConfiguration: 'validatingwebhookconfigurations',
} as const;

/** Reads the sources: objects as given, files as YAML documents of the two configuration kinds. */
export async function loadWebhookConfigurations(sources: readonly WebhookConfigurationSource[]): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const [i, s] of sources.entries()) {
    const docs =
      typeof s === 'string' ? parseAllDocuments(await readFile(s, 'utf8')).map((d) => d.toJSON() as KubeObject | null) : [s as KubeObject];
    for (const d of docs) if (d && d.kind && d.kind in KINDS) out.push(d);
    if (typeof s !== 'string' && !((s.kind ?? '') in KINDS))
      throw new InvalidOptionError(
        `webhooks.configurations[${i}]`,
        `is a ${s.kind ?? 'kindless object'}, not a Mutating- or ValidatingWebhookConfiguration`,
      );
  }
  return out;
}

/** A free loopback port, found by binding port 0 (envtest picks its webhook port the same way). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The local endpoint webhooks are served on: the webhook-server options, and the CA bundle clients trust. */
export interface WebhookEndpoint {
  server: WebhookServerOptions;
  caBundle: string;
}

/** Writes the serving certificate into `dir` and picks the port. */
export async function webhookEndpoint(dir: string): Promise<WebhookEndpoint> {
  const material = await servingMaterial('127.0.0.1');
  await writeFile(join(dir, 'tls.crt'), material.cert);
  await writeFile(join(dir, 'tls.key'), material.key, { mode: 0o600 });
  const port = await freePort();
  return { server: { host: '127.0.0.1', port, certDir: dir }, caBundle: Buffer.from(material.caPem).toString('base64') };
}

type ClientConfig = { url?: string; service?: { path?: string } } | undefined;

/** A clientConfig pointed at the endpoint, keeping its path (`fallback` when it names none). */
function localClientConfig(config: ClientConfig, endpoint: WebhookEndpoint, fallback: string): { url: string; caBundle: string } {
  const path = config?.service?.path ?? (config?.url ? new URL(config.url).pathname : fallback);
  return { url: `https://${endpoint.server.host}:${endpoint.server.port}${path}`, caBundle: endpoint.caBundle };
}

/** `crd` with a conversion webhook pointed at the endpoint (`/convert` when its clientConfig names no path); others as given. */
export function withLocalConversion(crd: CustomResourceDefinition, endpoint: WebhookEndpoint): CustomResourceDefinition {
  const conversion = crd.spec.conversion;
  if (conversion?.strategy !== 'Webhook' || !conversion.webhook) return crd;
  const clientConfig = localClientConfig(conversion.webhook.clientConfig as ClientConfig, endpoint, '/convert');
  return { ...crd, spec: { ...crd.spec, conversion: { ...conversion, webhook: { ...conversion.webhook, clientConfig } } } };
}

/** Installs `configurations` pointed at the local endpoint. */
export async function installWebhooks(options: {
  client: RestClient;
  endpoint: WebhookEndpoint;
  configurations: readonly KubeObject[];
}): Promise<void> {
  for (const c of options.configurations) {
    const webhooks = ((c as { webhooks?: { clientConfig?: ClientConfig }[] }).webhooks ?? []).map((w) => ({
      ...w,
      clientConfig: localClientConfig(w.clientConfig, options.endpoint, '/'),
    }));
    const plural = KINDS[c.kind as keyof typeof KINDS];
    const resource = defineResource({ group: 'admissionregistration.k8s.io', version: 'v1', kind: c.kind!, plural, namespaced: false });
    await options.client.create(resource, { ...c, webhooks } as never);
  }
}
