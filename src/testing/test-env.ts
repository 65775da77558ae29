/**
 * `TestEnv`: a local API server started in-process for one test suite (envtest without binaries).
 * Each environment gets fresh storage on a free loopback port, its CRDs installed and served, a
 * kubeconfig (object and file), a client, and a manager factory bound to the server.
 *
 * Invariants: `start()` resolves only once every CRD is Established *and* listed by discovery, so a
 * manager started right after it never races the CRD; `stop()` (and `await using`) shuts down every
 * manager the factory made, frees the client's sockets, stops the server and deletes the kubeconfig
 * file — idempotently, later calls share the first call's promise.
 */
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  CustomResourceDefinitionResource, InvalidOptionError, noopLogger, realClock, type Clock, type Logger, type ObjectOf,
} from '../meta/index.js';
import { startApiServer, type Kubeconfig, type RunningApiServer } from '../apiserver/index.js';
import { createClient, DiscoveryClient, isNotFound, type RestClient, type RestConfig } from '../client/index.js';
import { createManager, type Manager, type ManagerOptions } from '../manager/index.js';
import { CrdNotServedError } from './errors.js';
import { eventually } from './eventually.js';

/** A CustomResourceDefinition object (`apiextensions.k8s.io/v1`). */
export type CustomResourceDefinition = ObjectOf<typeof CustomResourceDefinitionResource>;

/** A CRD given as an object, or a YAML/JSON file or a folder of them (multi-document YAML allowed). */
export type CrdSource = CustomResourceDefinition | string;

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
}

const YAML_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Reads CRD objects from objects, files and folders, refusing documents that are not CRDs. */
export async function loadCrds(sources: readonly CrdSource[]): Promise<CustomResourceDefinition[]> {
  const out: CustomResourceDefinition[] = [];
  for (const source of sources) {
    if (typeof source !== 'string') {
      out.push(checkCrd(source, 'crds[]'));
      continue;
    }
    const info = await stat(source).catch((err: unknown) => {
      throw new InvalidOptionError('crds', `cannot read ${source}: ${(err as Error).message}`);
    });
    const files = info.isDirectory()
      ? (await readdir(source)).filter((f) => YAML_EXTENSIONS.has(extname(f))).sort().map((f) => join(source, f))
      : [source];
    for (const file of files) {
      for (const doc of parseAllDocuments(await readFile(file, 'utf8'))) {
        if (doc.errors.length > 0) throw new InvalidOptionError('crds', `${file}: ${doc.errors[0]!.message}`);
        const value: unknown = doc.toJS();
        if (value === null || value === undefined) continue; // an empty document between `---`
        out.push(checkCrd(value, file));
      }
    }
  }
  return out;
}

function checkCrd(value: unknown, where: string): CustomResourceDefinition {
  const v = value as Partial<CustomResourceDefinition>;
  if (v?.apiVersion !== 'apiextensions.k8s.io/v1' || v.kind !== 'CustomResourceDefinition') {
    throw new InvalidOptionError('crds', `${where}: expected an apiextensions.k8s.io/v1 CustomResourceDefinition, got ${v?.apiVersion}/${v?.kind}`);
  }
  return v as CustomResourceDefinition;
}

export class TestEnv implements AsyncDisposable {
  /** The server's kubeconfig as an object (one cluster, no credentials, namespace `default`). */
  readonly kubeconfig: Kubeconfig;
  /** The same kubeconfig in a temporary file, for kubectl and `createManager({ kubeconfig })`. */
  readonly kubeconfigPath: string;
  /** A client of the server without client-side rate limit. */
  readonly client: RestClient;
  readonly url: string;
  readonly clock: Clock;
  /** The running server, for `compact()` (410 Gone tests) and `handle()` (in-process requests). */
  readonly server: RunningApiServer;
  readonly #dir: string;
  readonly #crdTimeoutMs: number;
  readonly #managers = new Set<Manager>();
  #stopping: Promise<void> | undefined;

  private constructor(server: RunningApiServer, dir: string, clock: Clock, crdTimeoutMs: number) {
    this.server = server;
    this.url = server.url;
    this.kubeconfig = server.kubeconfig;
    this.kubeconfigPath = join(dir, 'kubeconfig');
    this.#dir = dir;
    this.clock = clock;
    this.#crdTimeoutMs = crdTimeoutMs;
    this.client = createClient({ config: this.restConfig() });
  }

  /** Starts a server, writes the kubeconfig, installs `crds` and waits until they are served. */
  static async start(options: TestEnvOptions = {}): Promise<TestEnv> {
    const clock = options.clock ?? realClock;
    const crdTimeoutMs = options.crdTimeoutMs ?? 10_000;
    const crds = await loadCrds(options.crds ?? []);
    const server = await startApiServer({ port: 0, clock, logger: options.logger ?? noopLogger });
    let dir: string | undefined;
    try {
      dir = await mkdtemp(join(tmpdir(), 'converge-testenv-'));
      await server.writeKubeconfig(join(dir, 'kubeconfig'));
      const env = new TestEnv(server, dir, clock, crdTimeoutMs);
      try {
        await env.installCrds(crds);
      } catch (err) {
        await env.stop();
        throw err;
      }
      return env;
    } catch (err) {
      await server.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** A fresh config for this server: no credentials, no client-side rate limit (tests are the only caller). */
  restConfig(): RestConfig {
    return { server: this.url, qps: -1, namespace: 'default' };
  }

  /**
   * A manager bound to this server, with the environment's clock and a silent logger unless given.
   * `stop()` shuts it down if the test did not.
   */
  async newManager(options: ManagerOptions = {}): Promise<Manager> {
    if (this.#stopping) throw new InvalidOptionError('newManager', 'the test environment is stopped');
    const mgr = await createManager({
      clock: this.clock,
      logger: noopLogger,
      ...options,
      ...(options.client || options.kubeconfig ? {} : { config: options.config ?? this.restConfig() }),
    });
    this.#managers.add(mgr);
    return mgr;
  }

  /** Installs CRDs (objects, files, folders) and waits until each is Established and in discovery. */
  async installCrds(sources: readonly CrdSource[]): Promise<CustomResourceDefinition[]> {
    const crds = await loadCrds(sources);
    const created = await Promise.all(crds.map((crd) => this.client.create(CustomResourceDefinitionResource, crd)));
    await Promise.all(created.map((crd) => this.#waitServed(crd)));
    return created;
  }

  async #waitServed(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata?.name ?? '';
    const discovery = new DiscoveryClient({ transport: this.client.transport });
    const versions = crd.spec.versions.filter((v) => v.served).map((v) => `${crd.spec.group}/${v.name}`);
    let missing = 'Established condition';
    try {
      await eventually(
        async () => {
          const current = await this.client.get(CustomResourceDefinitionResource, { name });
          const established = current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
          if (!established) return false;
          for (const gv of versions) {
            missing = `${crd.spec.names.plural} in discovery of ${gv}`;
            const list = await discovery.serverResourcesForGroupVersion(gv).catch((err: unknown) => {
              if (isNotFound(err)) return { resources: [] as { name: string }[] };
              throw err;
            });
            if (!list.resources.some((r) => r.name === crd.spec.names.plural)) return false;
          }
          return true;
        },
        // Real time on purpose: a FakeClock given for the controllers must not stall setup.
        { timeoutMs: this.#crdTimeoutMs, intervalMs: 5, clock: realClock },
      );
    } catch (err) {
      throw new CrdNotServedError(name, missing, this.#crdTimeoutMs, { cause: err });
    }
  }

  /** Shuts down managers made here, then the client, the server and the kubeconfig file. Idempotent. */
  stop(): Promise<void> {
    return (this.#stopping ??= (async () => {
      await Promise.all([...this.#managers].map((m) => m.shutdown()));
      this.client.close();
      await this.server.stop();
      await rm(this.#dir, { recursive: true, force: true });
    })());
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
