// Imports apiserver's internal (private) face: machinery shared between layers that the package does not export.
// A webhook server for one test file's admission tests: HTTPS on a free loopback port with a
// serving certificate for 127.0.0.1 (written to a temporary directory, as a manager's webhook
// server reads it), and the caBundle a webhook configuration needs to trust it.
import { servingMaterial } from '../../src/apiserver/internal.js';
import { noopLogger } from 'kube-converge/meta';
import { WebhookServer } from 'kube-converge/webhook';
import { certDir } from '../webhook/helpers.js';

export interface LocalWebhooks {
  server: WebhookServer;
  /** `https://127.0.0.1:<port>`: a configuration's clientConfig url is this and a registered path. */
  url: string;
  /** The CA that signs the server's certificate, base64 as a clientConfig's caBundle. */
  caBundle: string;
  /** Stops the server and removes its certificate files. */
  stop(): Promise<void>;
}

export async function startLocalWebhooks(): Promise<LocalWebhooks> {
  const material = await servingMaterial('127.0.0.1');
  const certs = await certDir();
  await certs.write(material);
  const server = new WebhookServer({ host: '127.0.0.1', port: 0, certDir: certs.dir, logger: noopLogger });
  const abort = new AbortController();
  const done = server.start(abort.signal);
  const url = await server.listening();
  return {
    server,
    url,
    caBundle: Buffer.from(material.caPem).toString('base64'),
    async stop() {
      abort.abort();
      await done;
      await certs.remove();
    },
  };
}
