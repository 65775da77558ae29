/**
 * The parent's side of bench/watch-tls-server.ts: forks the server, waits for its address and CA, and
 * asks it for its CPU time, so the benchmarks that read its stream measure the two ends the same way.
 * Invariant: one question to the child at a time (each answer is the next message it sends).
 */
import { fork } from 'node:child_process';

/** What the server child reports once it listens. */
export interface WatchTlsServerInfo {
  url: string;
  caPem: string;
  /** Pods in its LIST; the watch cycles through the same ones. */
  objects: number;
  /** MODIFIED events on each watch stream. */
  events: number;
  /** Mean bytes of an event line, its newline included. */
  eventBytes: number;
  /** Bytes of a watch stream's body. */
  streamBytes: number;
}

/** A running server child: its report, its CPU µs so far (user + system), and its stop. */
export interface WatchTlsServer extends WatchTlsServerInfo {
  cpuUs(): Promise<number>;
  stop(): void;
}

export async function startWatchTlsServer(): Promise<WatchTlsServer> {
  const child = fork(new URL('./watch-tls-server.ts', import.meta.url), { execArgv: ['--conditions=source', '--import', 'tsx'] });
  const info = await new Promise<WatchTlsServerInfo>((resolve, reject) => {
    child.once('message', (m) => resolve(m as WatchTlsServerInfo));
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
  });
  return {
    ...info,
    cpuUs: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve(m as number));
        child.send('cpu');
      }),
    stop: () => child.disconnect(),
  };
}
