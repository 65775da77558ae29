// What the manager's split client buys a reconciler, measured side by side in one process against a
// local API server holding 2 000 ConfigMaps in 20 namespaces: (a) a cached `get` (synchronous, zero
// copy) vs the same read through `apiReader` (one HTTP round trip on loopback — a floor for a real
// cluster); (b) a `list` through a namespaced field index vs a scan of the namespace with a filter (two of
// a namespace's hundred objects match, as when a few apps reference one Secret).
// Rounds interleave the contenders; each figure is the median per-call time. Prints ratios last.
// Run: node scripts/run-bench.mjs manager/cached-reads
import { startApiServer } from 'kube-converge/apiserver';
import { createClient } from 'kube-converge/client';
import { createManager } from 'kube-converge/manager';
import { ConfigMapResource, NamespaceResource, noopLogger } from 'kube-converge/meta';
import { restConfigFor } from 'kube-converge/testing';

const NAMESPACES = 20;
const PER_NAMESPACE = 100;
const ROUNDS = 7;

const api = await startApiServer({ port: 0 });
const admin = createClient({ config: restConfigFor(api) });
for (let n = 0; n < NAMESPACES; n++) {
  await admin.create(NamespaceResource, { metadata: { name: `ns-${n}` } });
  await Promise.all(
    Array.from({ length: PER_NAMESPACE }, (_, i) =>
      admin.create(ConfigMapResource, {
        metadata: { name: `cm-${i}`, namespace: `ns-${n}` },
        data: { ref: `secret-${i % 50}`, payload: 'x'.repeat(512) },
      }),
    ),
  );
}
const mgr = await createManager({ config: restConfigFor(api), logger: noopLogger });
mgr.indexField(ConfigMapResource, 'ref', (cm) => (cm.data?.['ref'] ? [cm.data['ref']] : []));
const run = mgr.start();
await mgr.elected();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const key = (i: number) => ({ namespace: `ns-${i % NAMESPACES}`, name: `cm-${i % PER_NAMESPACE}` });

async function time(calls: number, fn: (i: number) => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await fn(i);
  return Number(process.hrtime.bigint() - t0) / calls;
}

const cachedGet: number[] = [];
const apiGet: number[] = [];
const indexed: number[] = [];
const scanned: number[] = [];
let sink = 0;
for (let r = 0; r < ROUNDS; r++) {
  cachedGet.push(await time(20_000, (i) => (sink += mgr.client.get(ConfigMapResource, key(i)) ? 1 : 0)));
  apiGet.push(await time(300, (i) => mgr.apiReader.get(ConfigMapResource, key(i))));
  indexed.push(
    await time(
      5_000,
      (i) =>
        (sink += mgr.client.list(ConfigMapResource, {
          namespace: `ns-${i % NAMESPACES}`,
          matchingFields: { ref: `secret-${i % 50}` },
        }).length),
    ),
  );
  scanned.push(
    await time(
      5_000,
      (i) =>
        (sink += mgr.client
          .list(ConfigMapResource, { namespace: `ns-${i % NAMESPACES}` })
          .filter((c) => c.data?.['ref'] === `secret-${i % 50}`).length),
    ),
  );
}
await mgr.shutdown();
await run;
admin.close();
await api.stop();

const us = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;
console.log(`objects cached: ${NAMESPACES * PER_NAMESPACE} (checksum ${sink})`);
console.log(`get:  cache ${us(median(cachedGet))}/call, apiReader ${us(median(apiGet))}/call`);
console.log(`list: field index ${us(median(indexed))}/call, namespace scan + filter ${us(median(scanned))}/call`);
console.log(`ratio apiReader.get / cached get: ${(median(apiGet) / median(cachedGet)).toFixed(0)}x`);
console.log(`ratio scan+filter / field-index list: ${(median(scanned) / median(indexed)).toFixed(1)}x`);
