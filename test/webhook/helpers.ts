// Imports the webhook layer's private KeyPair type, the shape of the test certificates.
// Shared pieces of the webhook tests: a WebApp-like kind in two versions, AdmissionReview bodies,
// a logger that keeps its lines, and a folder holding a serving certificate and key.
import { mkdtemp, rm, writeFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineResource, type KubeObject, type LogFields, type Logger } from 'kube-converge/meta';
import type { AdmissionOperation, AdmissionReview } from 'kube-converge/webhook';
import { type KeyPair } from '../../src/webhook/certificate-watcher.js';

export interface AppSpecV1 {
  image: string;
  replicas?: number;
  ports?: { name: string; port: number }[];
}
export interface AppSpecV1alpha1 {
  image: string;
  replicas?: number;
  port?: number;
}

export const AppV1 = defineResource<AppSpecV1>({
  group: 'test.converge.dev',
  version: 'v1',
  kind: 'App',
  plural: 'apps',
  namespaced: true,
});
export const AppV1alpha1 = defineResource<AppSpecV1alpha1>({
  group: 'test.converge.dev',
  version: 'v1alpha1',
  kind: 'App',
  plural: 'apps',
  namespaced: true,
});

export const app = (spec: AppSpecV1, name = 'shop'): KubeObject & { spec: AppSpecV1 } => ({
  apiVersion: AppV1.apiVersion,
  kind: 'App',
  metadata: { name, namespace: 'default', uid: 'obj-uid-1' },
  spec,
});

/** An AdmissionReview body as the API server sends it. */
export function review(
  operation: AdmissionOperation,
  objects: { object?: KubeObject; oldObject?: KubeObject },
  extra: { uid?: string; dryRun?: boolean; apiVersion?: string } = {},
): AdmissionReview {
  return {
    apiVersion: extra.apiVersion ?? 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: extra.uid ?? 'req-1',
      kind: { group: 'test.converge.dev', version: 'v1', kind: 'App' },
      resource: { group: 'test.converge.dev', version: 'v1', resource: 'apps' },
      name: 'shop',
      namespace: 'default',
      operation,
      userInfo: { username: 'admin' },
      object: objects.object ?? null,
      oldObject: objects.oldObject ?? null,
      dryRun: extra.dryRun ?? false,
    },
  };
}

export interface LogLine {
  level: string;
  msg: string;
  fields: LogFields;
}

/** A logger that records every line with its bound fields. */
export function recordingLogger(lines: LogLine[] = [], bound: LogFields = {}): Logger & { lines: LogLine[] } {
  const at =
    (level: string) =>
    (fields: LogFields, msg: string): void => {
      lines.push({ level, msg, fields: { ...bound, ...fields } });
    };
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (f) => recordingLogger(lines, { ...bound, ...f }),
  };
}

/** A temporary certificate folder; `write` replaces the pair the way a Secret volume does (write aside, then rename). */
export async function certDir(): Promise<{ dir: string; write(pair: KeyPair): Promise<void>; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-webhook-certs-'));
  return {
    dir,
    async write(pair) {
      await writeFile(join(dir, '.tls.crt.new'), pair.cert);
      await writeFile(join(dir, '.tls.key.new'), pair.key);
      await rename(join(dir, '.tls.key.new'), join(dir, 'tls.key'));
      await rename(join(dir, '.tls.crt.new'), join(dir, 'tls.crt'));
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
