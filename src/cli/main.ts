#!/usr/bin/env node
/**
 * The `converge` command. `converge why` asks a running manager why an object is (not) converged
 * (see why.ts). `converge generate` writes the CRDs of schema-first definitions (see generate.ts).
 * `converge init` and `converge create api` scaffold an operator project and add kinds to it (see
 * init.ts); `converge create webhook` adds webhooks to a kind (see create-webhook.ts). `converge apiserver` runs the local Kubernetes-compatible API server on
 * loopback over HTTPS, installs CRDs from files and folders, writes a kubeconfig (CA and admin token)
 * that kubectl uses unedited, prints the URL and shuts down cleanly on SIGINT/SIGTERM. Argument errors
 * exit with status 2 and the usage text; other failures with status 1 and a message naming the cause.
 * Invariant: every choice that weakens security (plain HTTP, a non-loopback address) is warned about
 * on stderr before the server listens.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startApiServer } from '../apiserver/index.js';
import { parseKubernetesVersion } from '../apiserver/internal.js';
import { createCrds, crdPaths, readCrds } from './install-crds.js';
import { runCreate, runInit } from './init.js';
import { CREATE_WEBHOOK_USAGE } from './create-webhook.js';
import { ScaffoldUsageError } from './scaffold/index.js';
import { WhyError, runWhy } from './why.js';
import { runGenerate } from './generate.js';
import { RBAC_HELP, RBAC_USAGE, runRbac } from './rbac.js';
import { commandsOf, usageErrorText } from './usage-hints.js';

const USAGE = `Usage:
  converge apiserver [--port N] [--host H] [--kubeconfig PATH] [--crds PATH]... [--garbage-collection] [--insecure-http]
                     [--kubernetes-version V]
  converge why <kind>/<name> [-n NAMESPACE] [--url URL] [-o text|json]
  converge generate <module>... --out DIR [--check]
  converge init <name> [--dir DIR] [--group GROUP] [--kind KIND] [--kube-converge VERSION|PATH]
  converge create api <Kind> [--dir DIR] [--version VERSION] [--namespaced=false]
${CREATE_WEBHOOK_USAGE}
${RBAC_USAGE}
  converge help | --help
  converge --version

Commands:
  apiserver   Run a local Kubernetes-compatible API server (in memory, nothing runs Pods).
  why         Ask a running manager (--url or $CONVERGE_MANAGER_URL: its health-probe URL) why an
              object is or is not converged; -o json prints the manager's report as is.
  generate    Write the CRD (DIR/<group>_<plural>.yaml) of every defineCustomResource a module
              exports (.ts modules need tsx installed in the project); --check writes nothing and
              exits 1 when a file is stale, missing or no longer generated.
  init        Write a new operator project (a kind, its controller and tests, manifests); --help for more.
  create api  Add a kind with its controller and test to a project converge init wrote.
  create webhook  Add defaulting, validating or conversion webhooks to such a kind; --help for more.
  rbac        Turn what tests recorded a ServiceAccount doing into least-privilege Roles (--check: CI drift).

Options for apiserver:
  --port N           Port to listen on (default 0: any free port).
  --host H           Address to bind (default 127.0.0.1; another address is warned about).
  --kubeconfig PATH  Where to write a kubeconfig for kubectl (default ./converge.kubeconfig). It holds
                     the CA and the admin token, and is written readable by you only.
  --crds PATH        Install the CustomResourceDefinitions in a file or a folder (*.yaml, *.yml, *.json).
                     Repeat it or give a comma-separated list.
  --garbage-collection  Delete dependents whose owners are gone (off by default, like envtest).
  --insecure-http    Serve plain HTTP instead of HTTPS. The token is still required, but travels in
                     clear text: only for clients that cannot be given a CA.
  --kubernetes-version V  Behave as Kubernetes 1.V (1.31 to the newest, the default): /version, the API
                     groups and versions served, and behaviour that changed between versions.

${RBAC_HELP}`;

class UsageError extends Error {}
/** An argument error about one word (a command, a flag), which a "did you mean" may correct. */
class UnknownWordError extends UsageError {
  constructor(
    message: string,
    readonly word: string,
  ) {
    super(message);
  }
}

/** The package's version, read from the package.json two folders above this file (src/cli or dist/cli). */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return String(pkg.version);
}

const warn = (message: string): void => void process.stderr.write(`converge: WARNING: ${message}\n`);
const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

async function runApiserver(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      kubeconfig: { type: 'string' },
      crds: { type: 'string', multiple: true },
      'garbage-collection': { type: 'boolean' },
      'insecure-http': { type: 'boolean' },
      'kubernetes-version': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : /^\d+$/.test(values.port) ? Number(values.port) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be an integer between 0 and 65535, got ${values.port}`);
  const host = values.host ?? '127.0.0.1';
  const insecureHttp = values['insecure-http'] ?? false;
  const kubernetesVersion = values['kubernetes-version'];
  if (kubernetesVersion !== undefined) {
    try {
      parseKubernetesVersion(kubernetesVersion);
    } catch (err) {
      throw new UsageError(`--kubernetes-version: ${(err as Error).message}`);
    }
  }
  // Read the CRDs (and refuse bad ones) before anything listens.
  const crds = await readCrds(crdPaths(values.crds ?? []), warn);
  if (insecureHttp) warn('--insecure-http: serving plain HTTP. The admin token and every object cross the wire unencrypted.');
  if (!isLoopback(host))
    warn(`--host ${host} listens beyond loopback: whoever reaches the port with the kubeconfig's token is cluster admin.`);
  const srv = await startApiServer({
    port,
    host,
    insecureHttp,
    garbageCollection: values['garbage-collection'] ?? false,
    ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
  });
  const stop = async (): Promise<void> => {
    await srv.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  try {
    const n = await createCrds(srv, crds);
    if (crds.length > 0) process.stdout.write(`installed ${n} CustomResourceDefinition(s) from ${crds.map((c) => c.path).join(', ')}\n`);
    const kubeconfig = resolve(values.kubeconfig ?? 'converge.kubeconfig');
    await srv.writeKubeconfig(kubeconfig);
    process.stdout.write(
      `converge apiserver listening on ${srv.url}\nkubeconfig written to ${kubeconfig}\n  export KUBECONFIG=${kubeconfig}\n`,
    );
  } catch (err) {
    await srv.stop();
    throw err;
  }
}

/** The command being run, for the usage lines and flag hints of an argument error. */
let current: string | undefined;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    if (command === undefined) process.exitCode = 2;
    return;
  }
  if (command === '--version') {
    process.stdout.write(`${version()}\n`);
    return;
  }
  if (commandsOf(USAGE).includes(command)) current = command;
  if (command === 'apiserver') return runApiserver(rest);
  if (command === 'why') return void process.stdout.write(await runWhy(rest, process.env));
  if (command === 'generate') return void (process.exitCode = await runGenerate(rest, { usageError: (m) => new UsageError(m) }));
  if (command === 'init') return void process.stdout.write(await runInit(rest, process.cwd()));
  if (command === 'create') return void process.stdout.write(await runCreate(rest, process.cwd()));
  if (command === 'rbac') return void (process.exitCode = await runRbac(rest, process.stdout, process.stderr));
  throw new UnknownWordError(`unknown command: ${command}`, command);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof WhyError) {
    process.stderr.write(`converge why: ${err.message}\n`);
    process.exit(err.exitCode);
  }
  // Every parseArgs refusal (unknown option, missing value, stray positional) is an argument error too.
  const code = String((err as { code?: unknown }).code);
  if (err instanceof UsageError || err instanceof ScaffoldUsageError || code.startsWith('ERR_PARSE_ARGS_')) {
    // parseArgs's own text goes on about positionals after `--`; the flag is what matters.
    const flag = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^']*)'/.exec((err as Error).message)?.[1] : undefined;
    const message = flag !== undefined ? `unknown option ${flag}` : (err as Error).message;
    const word = err instanceof UnknownWordError ? err.word : flag;
    process.stderr.write(usageErrorText(message, USAGE, current, word));
    process.exit(2);
  }
  process.stderr.write(`converge: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
