// kubectl apply against CEL rules, with Kubernetes documentation examples: a CRD whose rule does
// not compile is refused with the compile error, an object that breaks a rule is refused with
// kube-apiserver's message and field, and a transition rule refuses an update but not the create.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeWithKubectl } from './harness.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas"
              message: "replicas should be in the range minReplicas..maxReplicas."
            properties:
              minReplicas: {type: integer}
              replicas: {type: integer}
              maxReplicas: {type: integer}
              level:
                type: string
                enum: [low, medium, high]
                x-kubernetes-validations:
                - rule: "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')"
                  message: cannot transition directly between 'low' and 'high'
`;

const BAD_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: badrules.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: badrules, kind: BadRule}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              foo:
                type: integer
                x-kubernetes-validations:
                - rule: "self == true"
`;

const inRange = '  minReplicas: 1\n  replicas: 1\n  maxReplicas: 1\n';

const crontab = (ns: string, name: string, spec: string) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
  namespace: ${ns}
spec:
${spec}`;

describeWithKubectl('kubectl apply with CEL validation rules', { crds: { 'crontabs.stable.example.com': CRD } }, ({ env, bin, v }) => {
  const ns = `cel-${v}`;

  it('self == true on an integer field: the CRD is refused with the compile error', async () => {
    const r = await env.run(bin, ['apply', '-f', await env.manifest(`bad-crd-${ns}.yaml`, BAD_CRD)]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self == true"/);
    assert.match(r.stderr, /compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '\(int, bool\)'/);
  });

  it('self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas: accepted in range, refused out of it', async () => {
    await env.ok(bin, ['create', 'namespace', ns]);
    const good = await env.manifest(`good-${ns}.yaml`, crontab(ns, 'good', '  minReplicas: 1\n  replicas: 2\n  maxReplicas: 3\n'));
    assert.equal((await env.ok(bin, ['apply', '-f', good])).trim(), 'crontab.stable.example.com/good created');
    const bad = await env.manifest(
      `bad-${ns}.yaml`,
      crontab(ns, 'my-new-cron-object', '  minReplicas: 0\n  replicas: 20\n  maxReplicas: 10\n'),
    );
    const r = await env.run(bin, ['apply', '-f', bad]);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /The CronTab "my-new-cron-object" is invalid: spec: Invalid value: "object": replicas should be in the range minReplicas\.\.maxReplicas\./,
    );
  });

  it("!(self == 'high' && oldSelf == 'low') && ...: the create is accepted, the update from low to high refused", async () => {
    const low = await env.manifest(`low-${ns}.yaml`, crontab(ns, 'level', `${inRange}  level: low\n`));
    assert.equal((await env.ok(bin, ['apply', '-f', low])).trim(), 'crontab.stable.example.com/level created');
    const high = await env.manifest(`high-${ns}.yaml`, crontab(ns, 'level', `${inRange}  level: high\n`));
    const r = await env.run(bin, ['apply', '-f', high]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.level: Invalid value: "string": cannot transition directly between 'low' and 'high'/);
    const medium = await env.manifest(`medium-${ns}.yaml`, crontab(ns, 'level', `${inRange}  level: medium\n`));
    assert.equal((await env.ok(bin, ['apply', '-f', medium])).trim(), 'crontab.stable.example.com/level configured');
  });
});
