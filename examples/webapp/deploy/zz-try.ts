import { execFileSync } from 'node:child_process';
import { TestEnv } from 'kube-converge/testing';
const env = await TestEnv.start({ crds: ['examples/webapp/deploy/local-rbac-crds.yaml'] });
try {
  for (let i = 0; i < 2; i++) {
    try {
      const out = execFileSync('/usr/bin/kubectl', ['--kubeconfig', env.kubeconfigPath, 'apply', '-f', 'examples/webapp/deploy/manifests/'], { encoding: 'utf8', stdio: 'pipe' });
      console.log(out);
    } catch (e) { console.log('ERR', (e as any).stdout, (e as any).stderr); }
  }
  console.log(execFileSync('/usr/bin/kubectl', ['--kubeconfig', env.kubeconfigPath, 'get', 'clusterroles,roles,deploy,sa', '-A'], { encoding: 'utf8' }));
} finally { await env.stop(); }
