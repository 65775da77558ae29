/**
 * `TestFleet`: a hub and N member clusters for multi-cluster tests, each a real in-process API server
 * with its own kubeconfig, started and stopped with one call. Members are reached through a
 * `PartitionProxy`, so a test can partition one (it stops answering) and heal it; members can be added
 * and removed while the test runs. Each member is registered in the hub as a kubeconfig Secret (the
 * form `kubeconfigSecretsProvider` reads), so a fleet under test finds its members the way it would
 * in production; `staticClusters()` gives the same members for `staticProvider`.
 *
 * Invariants: a member's kubeconfig points at its proxy, never at its server directly; `stop()` stops
 * every member, proxy and the hub, idempotently; a removed member's Secret is deleted before its
 * server stops, so a provider disengages it rather than seeing it fail.
 */
import { NamespaceResource, SecretResource, InvalidOptionError, type Clock } from '../meta/index.js';
import { bearerTokenAuth, type RestConfig } from '../client/index.js';
import { KUBECONFIG_SECRET_LABEL, kubeconfigSecretsProvider, type ClusterProvider, type StaticCluster } from '../multicluster/index.js';
import { TestEnv } from './test-env.js';
import type { CrdSource } from './crds.js';
import { PartitionProxy } from './partition-proxy.js';

/** Options of `TestFleet.start`. */
export interface TestFleetOptions {
  /** Member clusters to start: a count (named `member-0`, `member-1`, …) or names. Default 0. */
  members?: number | readonly string[];
  /** CRDs installed in the hub. */
  hubCrds?: readonly CrdSource[];
  /** CRDs installed in every member (also in those added later). */
  memberCrds?: readonly CrdSource[];
  /** Labels of each member's registration (its Secret's labels), by member name. */
  labels?: (name: string) => Readonly<Record<string, string>>;
  /** The hub namespace holding the members' kubeconfig Secrets; default `converge-fleet`. */
  namespace?: string;
  clock?: Clock;
}

/** One member cluster of a `TestFleet`. */
export interface TestMember {
  readonly name: string;
  readonly env: TestEnv;
  /** A config reaching the member through its proxy (what the fleet under test uses). */
  restConfig(): RestConfig;
  /** The kubeconfig YAML (through the proxy) registered in the hub. */
  readonly kubeconfigYaml: string;
  readonly partitioned: boolean;
}

interface Member extends TestMember {
  proxy: PartitionProxy;
}

/** A hub and member clusters, each an in-process API server, for multi-cluster tests. */
export class TestFleet implements AsyncDisposable {
  readonly hub: TestEnv;
  readonly namespace: string;
  readonly #options: TestFleetOptions;
  readonly #members = new Map<string, Member>();
  #stopping: Promise<void> | undefined;

  private constructor(hub: TestEnv, options: TestFleetOptions) {
    this.hub = hub;
    this.#options = options;
    this.namespace = options.namespace ?? 'converge-fleet';
  }

  /** Starts the hub and the members (concurrently) and registers the members in the hub. */
  static async start(options: TestFleetOptions = {}): Promise<TestFleet> {
    const hub = await TestEnv.start({ crds: options.hubCrds ?? [], ...(options.clock ? { clock: options.clock } : {}) });
    const fleet = new TestFleet(hub, options);
    try {
      await hub.client.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: fleet.namespace } });
      const m = options.members ?? 0;
      const names = typeof m === 'number' ? Array.from({ length: m }, (_, i) => `member-${i}`) : m;
      await Promise.all(names.map((n) => fleet.add(n)));
      return fleet;
    } catch (err) {
      await fleet.stop();
      throw err;
    }
  }

  /** The members now in the fleet, in the order they were added. */
  members(): TestMember[] {
    return [...this.#members.values()];
  }

  /** The member of that name; throws naming the known ones if there is none. */
  member(name: string): TestMember {
    return this.#member(name);
  }

  /** Starts a member cluster and registers it in the hub. */
  async add(name: string): Promise<TestMember> {
    if (this.#stopping) throw new InvalidOptionError('TestFleet.add', 'the fleet is stopped');
    if (this.#members.has(name)) throw new InvalidOptionError('TestFleet.add', `member ${name} already exists`);
    const env = await TestEnv.start({
      crds: this.#options.memberCrds ?? [],
      ...(this.#options.clock ? { clock: this.#options.clock } : {}),
    });
    const url = new URL(env.url);
    const proxy = await PartitionProxy.start({ host: url.hostname, port: Number(url.port) });
    const proxied = `${url.protocol}//${url.hostname}:${proxy.port}`;
    const kubeconfigYaml = env.server.kubeconfigYaml.replace(env.url, proxied);
    const member: Member = {
      name,
      env,
      proxy,
      kubeconfigYaml,
      get partitioned() {
        return proxy.partitioned;
      },
      restConfig: () => ({ ...env.restConfig(), server: proxied, auth: bearerTokenAuth(env.server.token) }),
    };
    this.#members.set(name, member);
    await this.hub.client.create(SecretResource, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace: this.namespace, labels: { ...this.#options.labels?.(name), [KUBECONFIG_SECRET_LABEL]: 'true' } },
      data: { kubeconfig: Buffer.from(kubeconfigYaml).toString('base64') },
    });
    return member;
  }

  /** Unregisters a member from the hub, then stops its server. */
  async remove(name: string): Promise<void> {
    const member = this.#member(name);
    this.#members.delete(name);
    await this.hub.client.delete(SecretResource, { namespace: this.namespace, name });
    await Promise.all([member.proxy.stop(), member.env.stop()]);
  }

  /** The member stops answering (its server keeps running behind a silent network). */
  partition(name: string): void {
    this.#member(name).proxy.partition();
  }

  /** The member answers again. */
  heal(name: string): void {
    this.#member(name).proxy.heal();
  }

  /** A provider that engages the members registered in the hub (and follows adds and removes). */
  provider(): ClusterProvider {
    return kubeconfigSecretsProvider({ client: this.hub.client, namespace: this.namespace });
  }

  /** The members now in the fleet, for `staticProvider`. */
  staticClusters(): Record<string, StaticCluster> {
    return Object.fromEntries(
      this.members().map((m) => [m.name, { config: m.restConfig(), labels: this.#options.labels?.(m.name) ?? {} }]),
    );
  }

  /** Stops every member, its proxy, and the hub. Idempotent. */
  stop(): Promise<void> {
    return (this.#stopping ??= (async () => {
      await Promise.all([...this.#members.values()].map((m) => Promise.all([m.proxy.stop(), m.env.stop()])));
      this.#members.clear();
      await this.hub.stop();
    })());
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  #member(name: string): Member {
    const m = this.#members.get(name);
    if (!m)
      throw new InvalidOptionError('TestFleet.member', `no member ${name} (members: ${[...this.#members.keys()].join(', ') || 'none'})`);
    return m;
  }
}
