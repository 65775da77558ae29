// RBAC as a real client meets it. ClusterRole aggregation: `kubectl auth can-i` as a user bound to an
// aggregating ClusterRole says no until a ClusterRole carrying the selected label appears (made and
// labelled with kubectl), yes while it carries it, no again once the label goes. TokenRequest:
// `kubectl create token --duration=10m` mints a token that `kubectl --token` then authenticates with
// (and RBAC authorizes as the ServiceAccount), and that the server answers 401 once its clock has
// passed the token's expiry; that server runs on a fake clock, so no test waits ten minutes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FakeClock } from 'kube-converge/meta';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { kubectlBinaries, startKubectlEnv, type KubectlBinary, type KubectlEnv } from './harness.js';

const binaries = kubectlBinaries();
const TEN_MINUTES_MS = 10 * 60_000;

/** A name unique to one kubectl version, as every version shares the server. */
const named = (base: string, bin: KubectlBinary): string => `${base}-${bin.version.replace(/[^a-z0-9]/gi, '-').toLowerCase()}`;

/** The claims of a JWT-shaped token, as a client that reads them sees them. */
const claimsOf = (token: string): { sub: string; iat: number; exp: number } =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describe('kubectl and RBAC: ClusterRole aggregation and TokenRequest', () => {
  let env: KubectlEnv;
  let clock: FakeClock;
  let timed: RunningApiServer;
  let timedKubeconfig: string;
  before(async () => {
    env = await startKubectlEnv();
    clock = new FakeClock(Date.now());
    timed = await startApiServer({ clock });
    timedKubeconfig = join(env.dir, 'fake-clock.kubeconfig');
    await timed.writeKubeconfig(timedKubeconfig);
  });
  after(async () => {
    if (timed !== undefined) await timed.stop();
    if (env !== undefined) await env.stop();
  });

  for (const bin of binaries) {
    describe(`kubectl ${bin.version}`, () => {
      it('auth can-i as a user bound to an aggregating ClusterRole follows the labelled ClusterRoles that appear and go', async () => {
        const user = named('jane', bin);
        const aggregating = named('monitoring', bin);
        const label = `example.com/aggregate-to-${aggregating}`;
        const manifest = await env.manifest(
          `${aggregating}.yaml`,
          `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ${aggregating}
aggregationRule:
  clusterRoleSelectors:
    - matchLabels:
        ${label}: "true"
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: ${aggregating}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: ${aggregating}
subjects:
  - apiGroup: rbac.authorization.k8s.io
    kind: User
    name: ${user}
`,
        );
        await env.ok(bin, ['apply', '-f', manifest]);
        const canI = async () => {
          const r = await env.run(bin, ['auth', 'can-i', 'list', 'pods', '-n', 'kube-system', '--as', user]);
          return { answer: r.stdout.trim(), code: r.code };
        };
        assert.deepEqual(await canI(), { answer: 'no', code: 1 });

        const reader = named('pod-reader', bin);
        await env.ok(bin, ['create', 'clusterrole', reader, '--verb=get,list', '--resource=pods']);
        assert.deepEqual(await canI(), { answer: 'no', code: 1 }, 'a ClusterRole without the label is not aggregated');
        await env.ok(bin, ['label', 'clusterrole', reader, `${label}=true`]);
        assert.deepEqual(await canI(), { answer: 'yes', code: 0 });
        const rules = await env.ok(bin, ['get', 'clusterrole', aggregating, '-o', 'jsonpath={.rules[0].resources[0]} {.rules[0].verbs}']);
        assert.equal(rules, 'pods ["get","list"]');

        await env.ok(bin, ['label', 'clusterrole', reader, `${label}-`]);
        assert.deepEqual(await canI(), { answer: 'no', code: 1 }, 'the rules go with the label');
      });

      it('kubectl create token mints a token kubectl --token authenticates with, answered 401 once the server clock passes its expiry', async () => {
        const as = ['--kubeconfig', timedKubeconfig];
        const sa = named('tok', bin);
        await env.ok(bin, [...as, 'create', 'serviceaccount', sa]);
        await env.ok(bin, [...as, 'create', 'role', sa, '--verb=list', '--resource=configmaps']);
        await env.ok(bin, [...as, 'create', 'rolebinding', sa, `--role=${sa}`, `--serviceaccount=default:${sa}`]);

        const token = (await env.ok(bin, [...as, 'create', 'token', sa, '--duration=10m'])).trim();
        const claims = claimsOf(token);
        assert.equal(claims.sub, `system:serviceaccount:default:${sa}`);
        assert.equal(claims.exp - claims.iat, 600);

        const withToken = [...as, '--token', token];
        assert.equal((await env.run(bin, [...withToken, 'auth', 'can-i', 'list', 'configmaps'])).stdout.trim(), 'yes');
        await env.ok(bin, [...withToken, 'get', 'configmaps']);
        const refused = await env.run(bin, [...withToken, 'get', 'secrets']);
        assert.notEqual(refused.code, 0);
        assert.match(refused.stderr, new RegExp(`User "system:serviceaccount:default:${sa}" cannot list resource "secrets"`));

        await clock.advance(TEN_MINUTES_MS - 1_000);
        await env.ok(bin, [...withToken, 'get', 'configmaps']); // a second before expiry it still works
        await clock.advance(1_000);
        const expired = await env.run(bin, [...withToken, 'get', 'configmaps']);
        assert.notEqual(expired.code, 0);
        assert.match(expired.stderr, /Unauthorized/);
        // A fresh token for the same account works again.
        const fresh = (await env.ok(bin, [...as, 'create', 'token', sa, '--duration=10m'])).trim();
        await env.ok(bin, [...as, '--token', fresh, 'get', 'configmaps']);
      });
    });
  }
});
