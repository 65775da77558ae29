/**
 * The serving certificate and key of the webhook server, read from files and read again whenever
 * their folder changes (cert-manager and kubelet replace a mounted Secret by swapping a symlink, so
 * the folder is watched, not the files). Invariant: a pair is handed on only once it loads as a TLS
 * context (a half-written rotation, a key that does not match, is logged and the served pair stays);
 * an unchanged pair is not handed on again.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Logger } from '../meta/index.js';

/** PEM text of a serving certificate (chain) and its private key. */
export interface KeyPair {
  cert: string;
  key: string;
}

/** Reads `certFile` and `keyFile`; throws if either is missing or they do not form a TLS key pair. */
export async function readKeyPair(certFile: string, keyFile: string): Promise<KeyPair> {
  const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  createSecureContext({ cert, key });
  return { cert, key };
}

/**
 * Watches the folders of `certFile` and `keyFile` until `signal` aborts and calls `onChange` with
 * each new valid pair. `current` is the pair served now.
 */
export function watchKeyPair(options: {
  certFile: string;
  keyFile: string;
  current: KeyPair;
  onChange: (pair: KeyPair) => void;
  logger: Logger;
  signal: AbortSignal;
}): void {
  const { certFile, keyFile, logger, signal } = options;
  let served = options.current;
  let reading: Promise<void> | undefined;
  let again = false;
  const reload = (): void => {
    // Events come in bursts during a rotation; one read at a time, and one more after it if needed.
    if (reading) {
      again = true;
      return;
    }
    reading = readKeyPair(certFile, keyFile)
      .then((pair) => {
        if (signal.aborted || (pair.cert === served.cert && pair.key === served.key)) return;
        served = pair;
        logger.info({ certFile }, 'serving certificate reloaded');
        options.onChange(pair);
      })
      .catch((err: unknown) =>
        logger.warn({ certFile, keyFile, err }, 'serving certificate not reloaded; the previous one is still served'),
      )
      .finally(() => {
        reading = undefined;
        if (again && !signal.aborted) {
          again = false;
          reload();
        }
      });
  };
  const watchers: FSWatcher[] = [...new Set([dirname(certFile), dirname(keyFile)])].map((dir) =>
    watch(dir, { persistent: false }, reload).on('error', (err) => logger.warn({ dir, err }, 'certificate folder watch failed')),
  );
  signal.addEventListener('abort', () => watchers.forEach((w) => w.close()), { once: true });
}
