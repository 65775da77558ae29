// Imports the CLI's private why command to test its answers in-process; the CLI has no library face.
// `converge why` against a real manager on a TestEnv: a missing object is NotFound (exit 1), not
// "converged"; the manager's address is taken without a scheme, as the manager's own options write it;
// and an address that is no URL is refused with the forms that work.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { controllerManagedBy } from 'kube-converge/controller';
import type { Manager } from 'kube-converge/manager';
import { ConfigMapResource } from 'kube-converge/meta';
import { TestEnv, eventually } from 'kube-converge/testing';
import { WhyError, managerUrl, runWhy } from '../../src/cli/why.js';

let env: TestEnv;
let mgr: Manager;
let running: Promise<void>;
let probe = '';

before(async () => {
  env = await TestEnv.start();
  mgr = await env.newManager({ healthProbeBindAddress: '127.0.0.1:0', gracefulShutdownTimeoutMs: 5_000 });
  controllerManagedBy(mgr)
    .for(ConfigMapResource)
    .complete(async () => undefined);
  running = mgr.start();
  await mgr.elected();
  probe = (await mgr.listening()).healthProbe!;
});

after(async () => {
  await mgr.shutdown();
  await running;
  await env.stop();
});

const why = (args: string[]): Promise<string> => runWhy(args, {});

describe('converge why', () => {
  it('answers NotFound with exit status 1 for an object that does not exist, naming the kind and key', async () => {
    await assert.rejects(
      why(['configmap/no-such-thing', '-n', 'default', '--url', probe]),
      (err: unknown) =>
        err instanceof WhyError && err.exitCode === 1 && /^NotFound: ConfigMap default\/no-such-thing does not exist/.test(err.message),
    );
    await assert.rejects(why(['configmap/no-such-thing', '--url', probe, '-o', 'json']), /NotFound/);
  });

  it('takes the manager address without a scheme (host:port as the manager option writes it) as http', async () => {
    await env.client.create(ConfigMapResource, { metadata: { namespace: 'default', name: 'present' } });
    const hostPort = new URL(probe).host;
    const out = await eventually(() => why(['configmap/present', '--url', hostPort]));
    assert.match(out, /^(not )?converged: ConfigMap default\/present/);
  });

  it('refuses an address that is no URL, or another scheme, with exit status 2 and the forms that work', () => {
    assert.equal(managerUrl('127.0.0.1:8081').href, 'http://127.0.0.1:8081/');
    assert.equal(managerUrl(':8081').href, 'http://127.0.0.1:8081/');
    assert.equal(managerUrl('https://ops.example.com:8443').href, 'https://ops.example.com:8443/');
    assert.throws(
      () => managerUrl('127.0.0.1:80a'),
      (err: unknown) =>
        err instanceof WhyError && err.exitCode === 2 && /such as http:\/\/127\.0\.0\.1:8081 or 127\.0\.0\.1:8081/.test(err.message),
    );
    assert.throws(() => managerUrl('ftp://127.0.0.1:8081'), /over http or https, not ftp/);
  });
});
