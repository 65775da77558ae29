// A manager running as a ServiceAccount that may not list or watch a kind it caches: readiness
// fails naming the resource and the missing verb (CONVERGE_INFORMER_FORBIDDEN), the refusal is
// logged once rather than on every retry, and readiness recovers once RBAC grants the verbs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, type LogFields, type Logger, ClusterRoleResource, ClusterRoleBindingResource } from 'kube-converge/meta';
import { TestEnv, eventually } from 'kube-converge/testing';

interface Line {
  level: string;
  msg: string;
  fields: LogFields;
}

function collectingLogger(lines: Line[]): Logger {
  const at = (level: string) => (fields: LogFields, msg: string) => void lines.push({ level, msg, fields });
  const logger: Logger = { debug: () => {}, info: at('info'), warn: at('warn'), error: at('error'), child: () => logger };
  return logger;
}

describe('a manager without list/watch permission', () => {
  it('fails readiness naming the resource and the verb, logs it once, and recovers when RBAC grants it', async () => {
    await using env = await TestEnv.start();
    const sa = await env.serviceAccount({ name: 'reader' });
    const lines: Line[] = [];
    const mgr = await env.newManager({ config: sa.restConfig(), logger: collectingLogger(lines), healthProbeBindAddress: '127.0.0.1:0' });
    await mgr.getInformer(ConfigMapResource);
    const running = mgr.start();
    try {
      const { healthProbe } = await mgr.listening();
      let body = '';
      await eventually(async () => {
        const r = await fetch(`${healthProbe}/readyz/informer-permissions`);
        body = await r.text();
        return r.status === 500;
      });
      assert.match(
        body,
        /the ConfigMap informer may not list configmaps across all namespaces: configmaps is forbidden: User "system:serviceaccount:default:reader" cannot list resource "configmaps" in API group "" at the cluster scope/,
      );
      // Let the reflector retry a few times: the refusal is logged once, not per attempt.
      await eventually(() => lines.filter((l) => l.msg.includes('list failed; retrying')).length >= 2);
      const named = lines.filter((l) => l.fields['code'] === 'CONVERGE_INFORMER_FORBIDDEN');
      assert.equal(named.length, 1);
      assert.equal(named[0]!.level, 'error');
      assert.deepEqual([named[0]!.fields['resource'], named[0]!.fields['verb']], ['configmaps', 'list']);

      await env.client.create(ClusterRoleResource, {
        metadata: { name: 'cm-reader' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'] }],
      } as never);
      await env.client.create(ClusterRoleBindingResource, {
        metadata: { name: 'cm-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cm-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: 'default' }],
      } as never);
      await eventually(async () => (await fetch(`${healthProbe}/readyz`)).status === 200, { timeoutMs: 20_000 });
      assert.ok(lines.some((l) => l.level === 'info' && l.msg === 'the ConfigMap informer may list again'));
    } finally {
      await mgr.shutdown();
      await running;
    }
  });
});
