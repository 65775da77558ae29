// The real-world corpus as a gate: every CRD that well-known operators ship (and that therefore
// installs on kube-apiserver) installs into one TestEnv and becomes Established, and every
// prometheus-operator example object is created, coming back with the defaults its schema gives.
// The corpus lives beside the project (`../shared/corpus`); it is read there, never copied in.
import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import {
  CustomResourceDefinitionResource,
  NamespaceResource,
  defineResource,
  type KubeObject,
  type ResourceDescriptor,
} from 'kube-converge/meta';
import { TestEnv } from 'kube-converge/testing';
import type { CustomResourceDefinition } from 'kube-converge/testing';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const corpus = join(projectRoot, '../shared/corpus');
const samplesDir = join(corpus, 'crds/prometheus-operator/samples');

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return path === samplesDir ? [] : yamlFilesUnder(path);
      return name.endsWith('.yaml') || name.endsWith('.yml') ? [path] : [];
    });
}

function documentsOf(file: string): KubeObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}

interface Installed {
  file: string;
  crd: CustomResourceDefinition;
}

describe('the real-world CRD corpus', () => {
  let env: TestEnv;
  const installed: Installed[] = [];
  const refused: string[] = [];
  let crdCount = 0;
  const kinds = new Map<string, ResourceDescriptor<KubeObject>>();

  before(async () => {
    assert.ok(existsSync(corpus), `the CRD corpus is missing: expected it at ${corpus} (the project's ../shared/corpus)`);
    env = await TestEnv.start();
    for (const file of yamlFilesUnder(corpus)) {
      for (const doc of documentsOf(file)) {
        if (doc.kind !== 'CustomResourceDefinition') continue;
        crdCount++;
        const crd = doc as unknown as CustomResourceDefinition;
        try {
          installed.push({ file, crd: await env.client.create(CustomResourceDefinitionResource, crd) });
        } catch (e) {
          refused.push(`${relative(corpus, file)}: ${(e as Error).message.slice(0, 600)}`);
        }
      }
    }
    for (const { crd } of installed) {
      for (const v of crd.spec.versions) {
        const { group, names, scope } = crd.spec;
        const descriptor = defineResource({
          group,
          version: v.name,
          kind: names.kind,
          plural: names.plural,
          namespaced: scope === 'Namespaced',
        });
        kinds.set(`${descriptor.apiVersion}/${names.kind}`, descriptor as ResourceDescriptor<KubeObject>);
      }
    }
  });

  after(async () => {
    await env?.stop();
  });

  it('installs every CRD, each Established', async () => {
    assert.equal(crdCount, 88, 'the corpus holds 88 CRDs');
    assert.deepEqual(refused, [], `${refused.length} of ${crdCount} CRDs were refused`);
    const list = await env.client.list(CustomResourceDefinitionResource);
    const established = list.items.filter((c) => c.status?.conditions?.some((k) => k.type === 'Established' && k.status === 'True'));
    assert.equal(established.length, crdCount);
  });

  describe('the prometheus-operator samples', () => {
    const created = new Map<string, KubeObject>();
    const failures: string[] = [];
    let sampleCount = 0;

    before(async () => {
      // The samples come from several guides that reuse names: each file gets its own namespace.
      for (const [i, file] of readdirSync(samplesDir).sort().entries()) {
        const namespace = `sample-${i}`;
        await env.client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
        for (const doc of documentsOf(join(samplesDir, file))) {
          sampleCount++;
          const resource = kinds.get(`${doc.apiVersion}/${doc.kind}`);
          if (resource === undefined) {
            failures.push(`${file}: ${doc.apiVersion} ${doc.kind} is not served (its CRD was refused)`);
            continue;
          }
          // Two samples are snippets from a user guide, without metadata: the server names them.
          doc.metadata ??= { generateName: `${(doc.kind ?? 'sample').toLowerCase()}-` };
          if (resource.namespaced) doc.metadata.namespace = namespace;
          try {
            created.set(file, await env.client.create(resource, doc));
          } catch (e) {
            failures.push(`${file}: ${(e as Error).message.slice(0, 600)}`);
          }
        }
      }
    });

    const spec = (file: string): Record<string, unknown> => {
      const obj = created.get(file);
      assert.ok(obj, `${file} was not created`);
      return (obj as unknown as { spec: Record<string, unknown> }).spec;
    };

    it('creates all 29 objects, but the two user-guide snippets without the required selector', () => {
      assert.equal(sampleCount, 29);
      // These two are fragments of a guide page (no metadata, no spec.selector, which the schema
      // requires): kube-apiserver refuses them with the same cause.
      const snippets = [
        'user-guides_scrapeclass_scrapeclass-example-podmonitor.yaml',
        'user-guides_scrapeclass_scrapeclass-example-servicemonitor.yaml',
      ];
      for (const file of snippets) {
        assert.match(
          failures.find((f) => f.startsWith(file)) ?? `${file}: created`,
          /422 Invalid: .* is invalid: spec\.selector: Required value$/,
        );
      }
      assert.deepEqual(
        failures.filter((f) => !snippets.some((s) => f.startsWith(s))),
        [],
      );
      assert.equal(created.size, 27);
    });

    it('returns a Prometheus with its schema defaults beside the fields it was given', () => {
      const s = spec('additional-scrape-configs_prometheus.yaml');
      assert.equal(s['evaluationInterval'], '30s');
      assert.equal(s['scrapeInterval'], '30s');
      assert.equal(s['portName'], 'web');
      assert.equal(s['shards'], 1);
      assert.equal(s['replicas'], 2);
      assert.deepEqual(s['additionalScrapeConfigs'], { name: 'additional-scrape-configs', key: 'prometheus-additional.yaml' });
    });

    it('keeps a value the object sets where the schema has a default', () => {
      const given = documentsOf(join(samplesDir, 'shards_prometheus.yaml'))[0] as unknown as { spec: { shards: number } };
      assert.equal(spec('shards_prometheus.yaml')['shards'], given.spec.shards);
    });

    it('defaults inside nested objects (Thanos sidecar block size)', () => {
      assert.deepEqual((spec('thanos_prometheus.yaml')['thanos'] as Record<string, unknown>)['blockSize'], '2h');
    });

    it('gives ThanosRuler, Alertmanager and PrometheusAgent their own defaults', () => {
      const ruler = spec('thanos_thanos-ruler.yaml');
      assert.deepEqual([ruler['evaluationInterval'], ruler['retention'], ruler['portName']], ['15s', '24h', 'web']);
      const alertmanager = spec('user-guides_alerting_alertmanager-example.yaml');
      assert.deepEqual([alertmanager['retention'], alertmanager['portName']], ['120h', 'web']);
      const agent = spec('rbac_prometheus-agent_prometheus.yaml');
      assert.deepEqual([agent['scrapeInterval'], agent['evaluationInterval']], ['30s', undefined]);
    });

    it('keeps an embedded volume claim template with its quantity (int-or-string) intact', () => {
      const storage = spec('storage_persisted-prometheus.yaml')['storage'] as Record<string, Record<string, unknown>>;
      assert.deepEqual(storage['volumeClaimTemplate']?.['spec'], { storageClassName: 'ssd', resources: { requests: { storage: '40Gi' } } });
    });
  });
});
