/**
 * A loopback TCP proxy for fault injection: clients connect to the proxy, which pipes bytes to the
 * target port. `cut()` destroys every open connection (a network failure mid-stream); `down()` stops
 * accepting (connection refused) until `up()`. Only 127.0.0.1.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly url: string;
  readonly port: number;
  /** Connections cut so far. */
  readonly cuts: number;
  cut(): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let cuts = 0;
  const onConnection = (client: Socket): void => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
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
    down: stop,
    up: async () => {
      server = createServer(onConnection);
      await listen(port);
    },
    close: stop,
  };
}
