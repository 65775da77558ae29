// kubectl creating a Deployment whose replicas is a string gets kube-apiserver's decode error, a 400
// naming the field in the Go decoder's words, and nothing is stored.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlBinaries, startKubectlEnv, type KubectlEnv } from './harness.js';

const binaries = kubectlBinaries();

const manifest = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:
  replicas: "three"
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
      - name: app
        image: nginx
`;

describe('kubectl and built-in fields of the wrong type', () => {
  let env: KubectlEnv;
  before(async () => {
    env = await startKubectlEnv();
  });
  after(async () => {
    if (env !== undefined) await env.stop();
  });

  it('has kubectl to run with', () => {
    assert.ok(binaries.length >= 1, 'no kubectl found');
  });

  for (const bin of binaries) {
    it(`kubectl ${bin.version} create is refused with the field named`, async () => {
      const name = `web-${bin.version.replace(/\./g, '-')}`;
      const r = await env.run(bin, ['create', '-f', await env.manifest(`${name}.yaml`, manifest(name))]);
      assert.notEqual(r.code, 0, r.stdout);
      assert.match(
        r.stderr,
        /Error from server \(BadRequest\).*Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32/,
      );
      assert.equal((await env.run(bin, ['get', 'deployment', name, '-n', 'default'])).code, 1, 'nothing stored');
    });
  }
});
