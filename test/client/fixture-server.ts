// A tiny scripted HTTP server on 127.0.0.1:0 for client tests: records each request and answers with
// the handler's reply. Not a test file itself.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: RecordedRequest, res: http.ServerResponse) => void;

export interface FixtureServer {
  url: string;
  requests: RecordedRequest[];
  /** Number of TCP connections closed so far. */
  closedConnections(): number;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function startFixtureServer(handler: Handler): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  let closed = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(rec);
      handler(rec, res);
    });
  });
  server.on('connection', (s) => s.on('close', () => closed++));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}`, requests, closedConnections: () => closed, stop, [Symbol.asyncDispose]: stop };
}

export function sendJson(res: http.ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(code, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
