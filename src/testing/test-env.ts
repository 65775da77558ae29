/**
 * `TestEnv`: a local API server started in-process for one test suite (envtest without binaries).
 * Each environment gets fresh storage on a free loopback port served over HTTPS (the process's
 * cached CA, so a start costs no key work after the first), its CRDs installed and served, a
 * kubeconfig with the CA and admin token (an object, and a file written when first asked for), a
 * client, and a manager factory.
 *
 * Invariants: `start()` resolves only once every CRD is Established *and* listed by discovery, so a
 * manager started right after it never races the CRD; `stop()` (and `await using`) shuts down every
 * manager the factory made, frees the client's sockets, stops the server and deletes the kubeconfig
 * file — idempotently, later calls share the first call's promise.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidOptionError, noopLogger, realClock, type Clock, type Logger } from '../meta/index.js';
import { startApiServer, type Kubeconfig, type RunningApiServer } from '../apiserver/index.js';
import { createClient, type RestClient, type RestConfig } from '../client/index.js';
import { createManager, type Manager, type ManagerOptions } from '../manager/index.js';
import { webhookServerFor, type WebhookServerOptions } from '../webhook/index.js';
import { installCrdsInProcess, loadCrds, type CrdSource, type CustomResourceDefinition } from './crds.js';
import { installWebhooks, loadWebhookConfigurations, webhookEndpoint, withLocalConversion, type TestEnvWebhooks } from './webhooks.js';
import { restConfigFor } from './server-config.js';
import { serviceAccountIdentity, type ServiceAccountIdentity, type ServiceAccountOptions } from './service-account.js';

/** Options of `TestEnv.start`: the CRDs to install, the clock and logger, and how the server is set up. */
export interface TestEnvOptions {
  /** CRDs to install before `start()` resolves. Folders are read one level deep, files in name order. */
  crds?: readonly CrdSource[];
  /**
   * The clock of the API server and of managers made by `newManager` (e.g. a `FakeClock` to drive
   * timeouts and backoff). Waiting for CRDs is real I/O and uses real time regardless.
   */
  clock?: Clock;
  /** How long to wait for each CRD to be served; default 10 000 ms. */
  crdTimeoutMs?: number;
  /** The API server's logger; default silent. */
  logger?: Logger;
  /**
   * Serve plain HTTP instead of HTTPS (default false), for a client that cannot be given the CA. The
   * admin token is still required; a warning goes to `logger`.
   */
  insecureHttp?: boolean;
  /**
   * Owner-reference garbage collection, done by kube-controller-manager in a cluster. Default false,
   * as in envtest: tests of deletion usually want to see that the operator does not rely on it.
   */
  garbageCollection?: boolean;
  /**
   * The Kubernetes version the server behaves as, `1.31` to the newest (default the newest): its
   * `/version`, the API groups and versions it serves, and the behaviour that changed between
   * versions (see docs/versions.md). `kubernetesVersions()` lists them, to run a test once per version.
   */
  kubernetesVersion?: string;
  /**
   * Webhook configurations to install, pointed at a local HTTPS endpoint that every manager made by
   * `newManager` serves its webhooks on (certificate, CA bundle and port handled here); the
   * conversion webhooks of `crds` are pointed there too.
   */
  webhooks?: TestEnvWebhooks;
}

/** A local API server started in-process for a test suite, with its CRDs installed and a client ready. */
export class TestEnv implements AsyncDisposable {
  /** The server's kubeconfig as an object (one cluster with its CA, the admin token, namespace `default`). */
  readonly kubeconfig: Kubeconfig;
  /** A client of the server (verifying its certificate, with the admin token) without client-side rate limit. */
  readonly client: RestClient;
  readonly url: string;
  readonly clock: Clock;
  /** The running server, for `compact()` (410 Gone tests) and `handle()` (in-process requests). */
  readonly server: RunningApiServer;
  /** This environment's temporary folder (kubeconfig, webhook certificates), made when first needed. */
  readonly #dir = join(tmpdir(), `converge-testenv-${randomBytes(8).toString('hex')}`);
  #dirMade = false;
  #kubeconfigWritten = false;
  readonly #crdTimeoutMs: number;
  readonly #managers = new Set<Manager>();
  #webhookServer: WebhookServerOptions | undefined;
  #stopping: Promise<void> | undefined;

  private constructor(server: RunningApiServer, clock: Clock, crdTimeoutMs: number) {
    this.server = server;
    this.url = server.url;
    this.kubeconfig = server.kubeconfig;
    this.clock = clock;
    this.#crdTimeoutMs = crdTimeoutMs;
    this.client = createClient({ config: this.restConfig() });
  }

  /** Starts a server, installs `crds` and waits until they are served. */
  static async start(options: TestEnvOptions = {}): Promise<TestEnv> {
    const clock = options.clock ?? realClock;
    const crdTimeoutMs = options.crdTimeoutMs ?? 10_000;
    // Read (and refuse bad input) before a server is started for nothing.
    const crds = await loadCrds(options.crds ?? []);
    const webhooks = options.webhooks ? await loadWebhookConfigurations(options.webhooks.configurations) : undefined;
    const server = await startApiServer({
      port: 0,
      clock,
      logger: options.logger ?? noopLogger,
      garbageCollection: options.garbageCollection ?? false,
      insecureHttp: options.insecureHttp ?? false,
      ...(options.kubernetesVersion !== undefined ? { kubernetesVersion: options.kubernetesVersion } : {}),
    });
    let env: TestEnv;
    try {
      env = new TestEnv(server, clock, crdTimeoutMs);
    } catch (err) {
      await server.stop();
      throw err;
    }
    // From here on, env.stop() undoes everything: managers, client, server, the temporary folder.
    try {
      // CRD conversion webhooks are pointed at the endpoint too, so a CRD is served converting from its first read.
      const endpoint = webhooks ? await webhookEndpoint(env.#folder()) : undefined;
      await env.installCrds(endpoint ? crds.map((c) => withLocalConversion(c, endpoint)) : crds);
      if (endpoint) {
        await installWebhooks({ client: env.client, endpoint, configurations: webhooks! });
        env.#webhookServer = endpoint.server;
      }
      return env;
    } catch (err) {
      await env.stop();
      throw err;
    }
  }

  /**
   * The kubeconfig in a temporary file, for kubectl and `createManager({ kubeconfig })`. Written on
   * first access (most tests only use the client), removed by `stop()`.
   */
  get kubeconfigPath(): string {
    const path = join(this.#dir, 'kubeconfig');
    if (!this.#kubeconfigWritten && !this.#stopping) {
      writeFileSync(join(this.#folder(), 'kubeconfig'), this.server.kubeconfigYaml, { mode: 0o600 });
      this.#kubeconfigWritten = true;
    }
    return path;
  }

  /** The temporary folder, made on first use (only this user may read it). */
  #folder(): string {
    if (!this.#dirMade) {
      mkdirSync(this.#dir, { mode: 0o700 });
      this.#dirMade = true;
    }
    return this.#dir;
  }

  /** Where managers made here serve webhooks (loopback host, port, certificate folder), when `webhooks` were given. */
  get webhookServerOptions(): WebhookServerOptions | undefined {
    return this.#webhookServer;
  }

  /** A fresh config for this server: its CA, the admin token, no client-side rate limit (tests are the only caller). */
  restConfig(): RestConfig {
    return restConfigFor(this.server);
  }

  /**
   * A manager bound to this server, with the environment's clock and a silent logger unless given.
   * Its cache deep-freezes what it stores whatever `NODE_ENV` says (unless `cache.freeze` is given),
   * so a test catches a write to a cached object. `stop()` shuts it down if the test did not.
   */
  async newManager(options: ManagerOptions = {}): Promise<Manager> {
    if (this.#stopping) throw new InvalidOptionError('newManager', 'the test environment is stopped');
    const mgr = await createManager({
      clock: this.clock,
      logger: noopLogger,
      ...options,
      cache: { ...options.cache, freeze: options.cache?.freeze ?? true },
      ...(options.client || options.kubeconfig ? {} : { config: options.config ?? this.restConfig() }),
    });
    this.#managers.add(mgr);
    if (this.#webhookServer) webhookServerFor(mgr, this.#webhookServer);
    return mgr;
  }

  /**
   * Acts as a ServiceAccount (created, with its namespace, when missing): a minted token, a
   * RestConfig and kubeconfig for it, and the server's recording of its requests. RBAC applies to
   * it — bind it a Role first — so `newManager({ config: sa.restConfig() })` runs a manager with
   * exactly the permissions a cluster would give it.
   */
  serviceAccount(options: ServiceAccountOptions): Promise<ServiceAccountIdentity> {
    if (this.#stopping) throw new InvalidOptionError('serviceAccount', 'the test environment is stopped');
    return serviceAccountIdentity(this.server, this.client, this.#folder(), options);
  }

  /**
   * Installs CRDs (objects, files, folders) and waits until each is Established and in discovery.
   * They go through the server's in-process handler: the same validation and the same guarantee as
   * over HTTPS, without the connections.
   */
  async installCrds(sources: readonly CrdSource[]): Promise<CustomResourceDefinition[]> {
    return installCrdsInProcess(this.server.handle, await loadCrds(sources), this.#crdTimeoutMs);
  }

  /** Shuts down managers made here, then the client, the server and the kubeconfig file. Idempotent. */
  stop(): Promise<void> {
    return (this.#stopping ??= (async () => {
      await Promise.all([...this.#managers].map((m) => m.shutdown()));
      this.client.close();
      await this.server.stop();
      if (this.#dirMade) await rm(this.#dir, { recursive: true, force: true });
    })());
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
