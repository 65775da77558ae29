// Child process for bench/apiserver.bench.ts: serves on loopback either Converge's API server
// (`converge`) or a bare node:http server that answers the same ConfigMap create/get payloads
// (`bare`), and reports its URL (and Converge's admin token) over IPC. It exits when the parent
// disconnects. Converge serves plain HTTP here (`insecureHttp`, token still checked) because the
// floor is plain HTTP: the ratio is about the server's work, not about TLS.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { startApiServer } from 'kube-converge/apiserver';

const mode = process.argv[2];
const send = (url: string, token = ''): void => {
  process.send?.({ url, token });
};

if (mode === 'converge') {
  const server = await startApiServer({ insecureHttp: true });
  process.on('disconnect', () => void server.stop().then(() => process.exit(0)));
  send(server.url, server.token);
} else {
  // The floor: parse the body, stamp the metadata the real server stamps, store the JSON, answer it.
  const store = new Map<string, string>();
  let rv = 0;
  const prefix = '/api/v1/namespaces/default/configmaps';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '';
      if (req.method === 'POST' && url === prefix) {
        const obj = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { metadata: Record<string, unknown> };
        obj.metadata = {
          ...obj.metadata,
          namespace: 'default',
          uid: randomUUID(),
          resourceVersion: String(++rv),
          creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        };
        const body = JSON.stringify(obj);
        store.set(String(obj.metadata['name']), body);
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      } else if (req.method === 'GET' && url.startsWith(`${prefix}/`)) {
        const body = store.get(url.slice(prefix.length + 1));
        if (body === undefined) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      } else {
        res.writeHead(404).end();
      }
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    send(`http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`);
  });
  process.on('disconnect', () => server.close(() => process.exit(0)));
}
