/**
 * @kubernetes/client-node against `converge apiserver` run as a process: one server per test file,
 * its kubeconfig loaded unedited with `KubeConfig.loadFromFile`, and a namespace of the file's own.
 * Also a small event queue for the informer's callbacks, so tests wait for the event itself and
 * time out with what they saw instead of polling.
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { startApiserverProcess, type ApiserverProcess } from '../apiserver-process.js';

export interface ClientNodeEnv {
  server: ApiserverProcess;
  kc: KubeConfig;
  core: CoreV1Api;
  namespace: string;
}

export async function startClientNodeEnv(namespace: string): Promise<ClientNodeEnv> {
  const server = await startApiserverProcess();
  try {
    const kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    return { server, kc, core, namespace };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

const EVENT_TIMEOUT_MS = 10_000;

/** Callback arguments in arrival order; `next` resolves with the oldest one not taken yet. */
export class EventQueue<T> {
  readonly #items: T[] = [];
  readonly #waiters: (() => void)[] = [];
  #taken = 0;

  push = (item: T): void => {
    this.#items.push(item);
    for (const w of this.#waiters.splice(0)) w();
  };

  next(timeoutMs = EVENT_TIMEOUT_MS): Promise<T> {
    return new Promise((resolve, reject) => {
      const take = (): boolean => {
        if (this.#taken >= this.#items.length) return false;
        resolve(this.#items[this.#taken++]!);
        return true;
      };
      if (take()) return;
      const timer = setTimeout(
        () => reject(new Error(`no event within ${timeoutMs} ms; had ${this.#items.length}: ${JSON.stringify(this.#items)}`)),
        timeoutMs,
      );
      const retry = (): void => {
        if (take()) clearTimeout(timer);
        else this.#waiters.push(retry);
      };
      this.#waiters.push(retry);
    });
  }
}
