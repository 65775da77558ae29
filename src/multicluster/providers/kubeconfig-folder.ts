/**
 * Clusters from kubeconfig files in a folder: each file is a cluster named after the file (without
 * its extension), engaged with the file's current context. The folder is read at start and then every
 * `intervalMs` on the fleet's clock; a new file engages its cluster, a changed one engages it again,
 * a removed one disengages it. A file that cannot be read as a kubeconfig is logged by name (once per
 * content) and leaves its cluster as it was. Hidden files (`.name`) are ignored, so an editor's or
 * a writer's temporary file is never taken for a cluster.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { loadKubeConfig } from '../../client/index.js';
import type { ClusterProvider, ClusterSink } from '../provider.js';

/** Options of `kubeconfigFolderProvider`. */
export interface KubeconfigFolderProviderOptions {
  /** The folder holding one kubeconfig file per cluster. */
  path: string;
  /** How often the folder is read again; default 5 000 ms. */
  intervalMs?: number;
}

/** Engages a cluster per kubeconfig file in `path`, following files added, changed and removed. */
export function kubeconfigFolderProvider(options: KubeconfigFolderProviderOptions): ClusterProvider {
  const intervalMs = options.intervalMs ?? 5_000;
  return {
    toString: () => `kubeconfig files in ${options.path}`,
    async run(sink: ClusterSink, signal: AbortSignal): Promise<void> {
      const log = sink.local.logger.child({ component: 'fleet-provider' });
      const seen = new Map<string, string>(); // cluster name → the file content last acted on
      const scan = (): void => {
        const present = new Map<string, string>();
        for (const file of readdirSync(options.path)) {
          const path = join(options.path, file);
          if (file.startsWith('.') || !statSync(path).isFile()) continue;
          const name = file.slice(0, file.length - extname(file).length);
          present.set(name, path);
          const text = readFileSync(path, 'utf8');
          if (seen.get(name) === text) continue;
          seen.set(name, text);
          let config;
          try {
            config = loadKubeConfig({ path, clock: sink.local.clock });
          } catch (err) {
            log.error({ err, cluster: name, file: path }, 'kubeconfig file cannot be used; cluster left as it was');
            continue;
          }
          sink.engage(name, { config }).catch((err: unknown) => log.error({ err, cluster: name }, 'cluster not engaged'));
        }
        for (const name of [...seen.keys()]) {
          if (present.has(name)) continue;
          seen.delete(name);
          void sink.disengage(name);
        }
      };
      while (!signal.aborted) {
        try {
          scan();
        } catch (err) {
          // The folder itself is unreadable (removed, permissions): say so and try again next round.
          log.error({ err, folder: options.path }, 'kubeconfig folder cannot be read');
        }
        await sink.local.clock.sleep(intervalMs, { signal }).catch(() => {});
      }
    },
  };
}
