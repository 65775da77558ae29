#!/usr/bin/env node
/**
 * The `converge` command. `converge apiserver` runs the local Kubernetes-compatible API server on
 * loopback, installs CRDs from a directory, writes a kubeconfig kubectl can use, prints the URL and
 * shuts down cleanly on SIGINT/SIGTERM. Argument errors exit with status 2 and the usage text.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { startApiServer, type RunningApiServer } from '../apiserver/index.js';

const USAGE = `Usage:
  converge apiserver [--port N] [--host H] [--kubeconfig PATH] [--crds DIR] [--garbage-collection]
  converge --help

Commands:
  apiserver   Run a local Kubernetes-compatible API server (in memory, nothing runs Pods).

Options for apiserver:
  --port N           Port to listen on (default 0: any free port).
  --host H           Address to bind (default 127.0.0.1).
  --kubeconfig PATH  Where to write a kubeconfig for kubectl (default ./converge.kubeconfig).
  --crds DIR         Install every CustomResourceDefinition found in DIR (*.yaml, *.yml, *.json).
  --garbage-collection  Delete dependents whose owners are gone (off by default, like envtest).
`;

class UsageError extends Error {}

/** Reads every document of every YAML/JSON file in `dir` and creates the CRDs among them. */
async function installCrds(srv: RunningApiServer, dir: string): Promise<number> {
  const files = (await readdir(dir)).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
  let n = 0;
  for (const f of files) {
    const text = await readFile(join(dir, f), 'utf8');
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length > 0) throw new Error(`${f}: ${doc.errors[0]!.message}`);
      const obj = doc.toJSON() as { kind?: string; metadata?: { name?: string } } | null;
      if (!obj || obj.kind !== 'CustomResourceDefinition') continue;
      const r = await srv.handle({
        method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        headers: { 'content-type': 'application/json', 'user-agent': 'converge' }, body: JSON.stringify(obj),
      });
      if (r.status !== 201) throw new Error(`${f}: creating CRD ${obj.metadata?.name ?? '?'} failed (${r.status}): ${r.body}`);
      n++;
    }
  }
  return n;
}

async function runApiserver(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, host: { type: 'string' }, kubeconfig: { type: 'string' }, crds: { type: 'string' }, 'garbage-collection': { type: 'boolean' }, help: { type: 'boolean' } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : /^\d+$/.test(values.port) ? Number(values.port) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer between 0 and 65535, got ${values.port}`);
  const srv = await startApiServer({ port, host: values.host ?? '127.0.0.1', garbageCollection: values['garbage-collection'] ?? false });
  const stop = async (): Promise<void> => {
    await srv.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  try {
    if (values.crds) {
      const n = await installCrds(srv, resolve(values.crds));
      process.stdout.write(`installed ${n} CustomResourceDefinition(s) from ${values.crds}\n`);
    }
    const kubeconfig = resolve(values.kubeconfig ?? 'converge.kubeconfig');
    await srv.writeKubeconfig(kubeconfig);
    process.stdout.write(`converge apiserver listening on ${srv.url}\nkubeconfig written to ${kubeconfig}\n  export KUBECONFIG=${kubeconfig}\n`);
  } catch (err) {
    await srv.stop();
    throw err;
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    if (command === undefined) process.exitCode = 2;
    return;
  }
  if (command === 'apiserver') return runApiserver(rest);
  throw new UsageError(`unknown command: ${command}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  // Every parseArgs refusal (unknown option, missing value, stray positional) is an argument error too.
  if (err instanceof UsageError || String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) {
    process.stderr.write(`converge: ${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  process.stderr.write(`converge: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
