/**
 * A TCP proxy in front of a test server, so a test can cut a cluster off the network and bring it back.
 * Bytes pass through untouched (TLS included: the server's certificate is valid for the loopback
 * address the proxy listens on). Partitioned, the proxy goes silent the way a lost network does: open
 * connections stop carrying bytes and new ones are accepted but never answered, so clients see
 * timeouts, not resets. Healed, the silent connections are closed (their clients reconnect) and new
 * ones pass through again.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A loopback TCP proxy that can be partitioned and healed. */
export class PartitionProxy {
  readonly #server: Server;
  readonly #target: { host: string; port: number };
  readonly #open = new Set<Socket>();
  #partitioned = false;

  private constructor(server: Server, target: { host: string; port: number }) {
    this.#server = server;
    this.#target = target;
  }

  /** Listens on a free loopback port and forwards to `target`. */
  static async start(target: { host: string; port: number }): Promise<PartitionProxy> {
    let proxy!: PartitionProxy;
    const server = createServer((client) => proxy.#accept(client));
    proxy = new PartitionProxy(server, target);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  /** The port clients connect to. */
  get port(): number {
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('partition proxy is not listening');
    return address.port;
  }

  get partitioned(): boolean {
    return this.#partitioned;
  }

  /** Goes silent: open connections stop carrying bytes, new ones are held unanswered. */
  partition(): void {
    this.#partitioned = true;
    for (const s of this.#open) {
      s.pause();
      s.unpipe();
    }
  }

  /** Closes the silenced connections and forwards new ones again. */
  heal(): void {
    this.#partitioned = false;
    for (const s of this.#open) s.destroy();
  }

  /** Stops listening and closes every connection. */
  async stop(): Promise<void> {
    for (const s of this.#open) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #track(s: Socket): void {
    this.#open.add(s);
    s.on('close', () => this.#open.delete(s));
    // A reset from either side only ends this pair; the proxy goes on.
    s.on('error', () => s.destroy());
  }

  #accept(client: Socket): void {
    this.#track(client);
    if (this.#partitioned) {
      client.pause();
      return;
    }
    const upstream = createConnection(this.#target);
    this.#track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
