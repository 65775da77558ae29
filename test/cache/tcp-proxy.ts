/**
 * A loopback TCP proxy for fault injection: clients connect to the proxy, which pipes bytes to the
 * target port. `cut()` destroys every open connection (a network failure mid-stream); `down()` stops
 * accepting (connection refused) until `up()`; `blackhole()` stops forwarding for good while keeping
 * every connection open (a partition: requests hang instead of failing). Only 127.0.0.1.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly url: string;
  readonly port: number;
  /** Connections cut so far. */
  readonly cuts: number;
  cut(): void;
  blackhole(): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let cuts = 0;
  let blackholed = false;
  const onConnection = (client: Socket): void => {
    sockets.add(client);
    if (blackholed) {
      // Accepted (the client's connect succeeds) and never answered.
      client.pause();
      client.on('error', () => client.destroy()).on('close', () => sockets.delete(client));
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    const pair = { client, upstream };
    pairs.add(pair);
    sockets.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
  const port = await listen(0);
  const cut = (): void => {
    for (const s of sockets) if (!s.destroyed) s.destroy();
    cuts++;
    sockets.clear();
  };
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      server.close(() => resolve());
      cut();
    });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get cuts() {
      return cuts;
    },
    cut,
    blackhole: () => {
      blackholed = true;
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    down: stop,
    up: async () => {
      server = createServer(onConnection);
      await listen(port);
    },
    close: stop,
  };
}
