// Imports the manager's private reachability probe to drive it on a fake clock, beside the manager-level check.
// A manager started against an API server that refuses connections says so at its first failed
// request, naming the URL and the error, once per outage, while its client and informers back off on
// the injected clock (which this test never advances: the warning must not wait for a retry).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { controllerManagedBy } from 'kube-converge/controller';
import { createManager } from 'kube-converge/manager';
import { ConfigMapResource, FakeClock, type LogFields, type Logger } from 'kube-converge/meta';
import { eventually } from 'kube-converge/testing';
import { reachabilityReporter } from '../../src/manager/reachability.js';

interface Line {
  level: string;
  msg: string;
  fields: LogFields;
}

function capture(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const make = (bound: LogFields): Logger => {
    const at =
      (level: string) =>
      (fields: LogFields, msg: string): void =>
        void lines.push({ level, msg, fields: { ...bound, ...fields } });
    return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (f) => make({ ...bound, ...f }) };
  };
  return { logger: make({}), lines };
}

/** A loopback port nothing listens on: bound by us, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a manager whose API server cannot be reached', () => {
  it('warns at the first refused request, naming the server URL and the error, before any retry', async () => {
    const server = `http://127.0.0.1:${await closedPort()}`;
    const { logger, lines } = capture();
    const mgr = await createManager({ config: { server }, logger, clock: new FakeClock() });
    controllerManagedBy(mgr)
      .for(ConfigMapResource)
      .complete(async () => undefined);
    const stop = new AbortController();
    const running = mgr.start(stop.signal);
    try {
      const warning = await eventually(() => {
        const found = lines.find((l) => l.level === 'warn' && l.msg.startsWith('cannot reach the API server'));
        assert.ok(found, 'the warning is logged');
        return found;
      });
      assert.equal(warning.fields['server'], server);
      assert.match(warning.msg, new RegExp(`at ${server}: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+; retrying with backoff$`));
    } finally {
      stop.abort();
      await running;
    }
  });

  it('warns once per outage and says when the server answers again', () => {
    const { logger, lines } = capture();
    const report = reachabilityReporter('https://k8s.example:6443', logger);
    const refused = Object.assign(new Error(''), { code: 'ECONNREFUSED' });
    for (let i = 0; i < 3; i++) report({ verb: 'GET', host: 'k8s.example:6443', code: '<error>', durationMs: 1, error: refused });
    report({ verb: 'GET', host: 'k8s.example:6443', code: '200', durationMs: 1 });
    report({ verb: 'GET', host: 'k8s.example:6443', code: '200', durationMs: 1 });
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg]),
      [
        ['warn', 'cannot reach the API server at https://k8s.example:6443: ECONNREFUSED; retrying with backoff'],
        ['info', 'the API server at https://k8s.example:6443 answers again'],
      ],
    );
  });
});
