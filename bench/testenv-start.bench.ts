// TestEnv.start() + stop(), the price of an isolated environment per test, in three forms measured in
// one process:
//  1. the first start in a process (cold): loads the X.509 library and makes the CA and the serving
//     certificate, which every later start reuses;
//  2. warm HTTPS starts (the default): median of 30;
//  3. insecure-HTTP starts (no TLS at all): median of 30, alternated with (2) so both see the same machine.
// Goal: warm HTTPS median <= 50 ms, and close to plain HTTP. Prints the ratio TLS-warm / HTTP last.
// Run: node scripts/run-bench.mjs testenv-start
import { performance } from 'node:perf_hooks';
import { ConfigMapResource } from 'kube-converge/meta';
import { TestEnv } from 'kube-converge/testing';

const ROUNDS = 30;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** start → one request through the env's client (so the TLS handshake is paid) → stop, in ms. */
async function cycle(insecureHttp: boolean): Promise<number> {
  const t0 = performance.now();
  const env = await TestEnv.start({ insecureHttp });
  await env.client.list(ConfigMapResource, { namespace: 'default' });
  await env.stop();
  return performance.now() - t0;
}

const cold = await cycle(false);
const tls: number[] = [];
const http: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  tls.push(await cycle(false));
  http.push(await cycle(true));
}
const fmt = (n: number): string => n.toFixed(1);
console.log(`first HTTPS start in the process (cold: reuses the per-user cached loopback certificate, or makes one): ${fmt(cold)} ms`);
console.log(`warm HTTPS start+request+stop:  median ${fmt(median(tls))} ms (min ${fmt(Math.min(...tls))}, of ${ROUNDS})`);
console.log(`plain HTTP start+request+stop:  median ${fmt(median(http))} ms (min ${fmt(Math.min(...http))}, of ${ROUNDS})`);
console.log(`ratio TLS-warm / HTTP: ${(median(tls) / median(http)).toFixed(2)}`);
