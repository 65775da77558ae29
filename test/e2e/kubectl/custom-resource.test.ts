// kubectl against the in-process server on a custom resource: install a CRD and wait for it,
// apply twice, printer columns, explain, merge/JSON patches (strategic is refused with 415),
// status and scale subresources, wait for a condition, get -w, delete.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeWithKubectl } from './harness.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: webapps.platform.converge.dev
spec:
  group: platform.converge.dev
  scope: Namespaced
  names:
    plural: webapps
    singular: webapp
    kind: WebApp
    shortNames: [wa]
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Image
      type: string
      jsonPath: .spec.image
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Ready
      type: string
      jsonPath: .status.conditions[?(@.type=="Ready")].status
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: WebAppSpec is the desired state of a web application.
            required: [image]
            properties:
              image:
                type: string
                description: Container image that serves the application.
              replicas:
                type: integer
                minimum: 0
                default: 1
                description: Number of pods to run.
          status:
            type: object
            properties:
              replicas:
                type: integer
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
                    reason: {type: string}
                    message: {type: string}
                    lastTransitionTime: {type: string, format: date-time}
`;

const webApp = (ns: string, name: string, image: string) => `apiVersion: platform.converge.dev/v1alpha1
kind: WebApp
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  image: ${image}
`;

describeWithKubectl('kubectl on a custom resource', { crds: { 'webapps.platform.converge.dev': CRD } }, ({ env, bin, v }) => {
  const ns = `cr-${v}`;

  it('finds the new kind in api-resources', async () => {
    assert.match(
      await env.ok(bin, ['api-resources', '--api-group=platform.converge.dev']),
      /^webapps\s+wa\s+platform.converge.dev\/v1alpha1\s+true\s+WebApp$/m,
    );
  });

  it('applies a custom resource twice (created, unchanged), defaulting spec.replicas', async () => {
    await env.ok(bin, ['create', '-f', await env.manifest(`ns-${ns}.yaml`, `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`)]);
    const file = await env.manifest(`wa-${ns}.yaml`, webApp(ns, 'shop', 'shop:1'));
    assert.equal((await env.ok(bin, ['apply', '-f', file])).trim(), 'webapp.platform.converge.dev/shop created');
    assert.equal((await env.ok(bin, ['apply', '-f', file])).trim(), 'webapp.platform.converge.dev/shop unchanged');
    const changed = await env.manifest(`wa2-${ns}.yaml`, webApp(ns, 'shop', 'shop:2'));
    assert.equal((await env.ok(bin, ['apply', '-f', changed])).trim(), 'webapp.platform.converge.dev/shop configured');
    assert.equal(await env.ok(bin, ['get', 'wa', 'shop', '-n', ns, '-o', 'jsonpath={.spec.image}/{.spec.replicas}']), 'shop:2/1');
  });

  it('rejects an invalid custom resource with the field named', async () => {
    const bad = await env.manifest(`bad-${ns}.yaml`, `${webApp(ns, 'bad', 'x')}  replicas: -1\n`);
    const r = await env.run(bin, ['apply', '-f', bad]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0/);
  });

  it('refuses unknown fields under strict validation (the default) and only warns with --validate=warn', async () => {
    const file = await env.manifest(`unknown-${ns}.yaml`, `${webApp(ns, 'typo', 'x')}  imagePullPolicy: Always\n`);
    const strict = await env.run(bin, ['apply', '-f', file]);
    assert.notEqual(strict.code, 0);
    assert.match(
      strict.stderr,
      /WebApp in version "v1alpha1" cannot be handled as a WebApp: strict decoding error: unknown field "spec.imagePullPolicy"/,
    );
    const warned = await env.run(bin, ['apply', '-f', file, '--validate=warn']);
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.stderr, /Warning: unknown field "spec.imagePullPolicy"/);
    assert.equal(await env.ok(bin, ['get', 'wa', 'typo', '-n', ns, '-o', 'jsonpath={.spec}']), '{"image":"x","replicas":1}');
    await env.ok(bin, ['delete', 'wa', 'typo', '-n', ns]);
  });

  it('prints the CRD printer columns', async () => {
    const out = await env.ok(bin, ['get', 'webapps', '-n', ns]);
    assert.match(out, /^NAME\s+IMAGE\s+REPLICAS\s+READY\s+AGE$/m);
    // A column whose JSONPath finds nothing is an empty cell.
    assert.match(out, /^shop\s+shop:2\s+1\s+\d+s$/m);
  });

  it('explains a field of the custom resource from its schema', async () => {
    const out = await env.ok(bin, ['explain', 'webapps.spec.replicas']);
    assert.match(out, /KIND:\s+WebApp/);
    assert.match(out, /Number of pods to run\./);
    assert.match(
      await env.ok(bin, ['explain', 'webapp.spec']),
      /image\s+<string>.*-required-|Container image that serves the application/s,
    );
  });

  it('patches with merge and JSON patches, and the server refuses a strategic merge patch with 415', async () => {
    await env.ok(bin, ['patch', 'wa', 'shop', '-n', ns, '--type=merge', '-p', '{"spec":{"replicas":2}}']);
    await env.ok(bin, ['patch', 'wa', 'shop', '-n', ns, '--type=json', '-p', '[{"op":"replace","path":"/spec/image","value":"shop:3"}]']);
    assert.equal(await env.ok(bin, ['get', 'wa', 'shop', '-n', ns, '-o', 'jsonpath={.spec.image}/{.spec.replicas}']), 'shop:3/2');
    const strategic = await env.run(bin, ['patch', 'wa', 'shop', '-n', ns, '--type=strategic', '-p', '{"spec":{"replicas":5}}']);
    assert.notEqual(strategic.code, 0);
    assert.match(strategic.stderr, /UnsupportedMediaType|not supported/);
  });

  it('scales through the scale subresource', async () => {
    assert.match(await env.ok(bin, ['scale', 'webapp', 'shop', '-n', ns, '--replicas=4']), /webapp.platform.converge.dev\/shop scaled/);
    assert.equal(await env.ok(bin, ['get', 'wa', 'shop', '-n', ns, '-o', 'jsonpath={.spec.replicas}']), '4');
  });

  it('streams changes with get -w and waits for a condition set through the status subresource', async () => {
    const watch = env.watch(bin, ['get', 'webapps', '-n', ns, '-w']);
    try {
      await watch.waitFor(/^shop\s+shop:3\s+4\s/);
      const status = {
        status: {
          replicas: 4,
          conditions: [
            { type: 'Ready', status: 'True', reason: 'AllPodsReady', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' },
          ],
        },
      };
      assert.match(
        await env.ok(bin, ['patch', 'webapp', 'shop', '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify(status)]),
        /patched/,
      );
      assert.match(await env.ok(bin, ['wait', '--for=condition=Ready', 'webapp/shop', '-n', ns, '--timeout=15s']), /condition met/);
      await watch.waitFor(/^shop\s+shop:3\s+4\s+True\s/);
      assert.equal(await env.ok(bin, ['get', 'wa', 'shop', '-n', ns, '-o', 'jsonpath={.spec.image}']), 'shop:3');
    } finally {
      watch.stop();
    }
  });

  it('deletes the custom resource and waits until it is gone', async () => {
    assert.match(await env.ok(bin, ['delete', 'webapp', 'shop', '-n', ns, '--timeout=15s']), /webapp.platform.converge.dev "shop" deleted/);
    assert.match((await env.run(bin, ['get', 'webapp', 'shop', '-n', ns])).stderr, /webapps.platform.converge.dev "shop" not found/);
  });
});
