/**
 * Kubeconfig loading, written for this project (no client library): the files named by `KUBECONFIG`
 * (merged as kubectl merges them) or `~/.kube/config`, or one kubeconfig held as text (a Secret's),
 * one context (chosen, or `current-context`), resolved into a complete `RestConfig`: server, TLS
 * material, credentials, namespace.
 *
 * Merge rules (kubectl's): files are read in order, missing ones skipped; for clusters, users and
 * contexts the first file that defines a name wins; `current-context` comes from the first file that
 * sets it. Relative paths inside a file resolve against that file's folder; text has no folder, so a
 * relative path in it is refused. Invariant: every problem is a `KubeConfigError` naming the file (or
 * the text's origin), the context and the cause; text and files share every rule below the parse.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { realClock, type Clock } from '../meta/index.js';
import { basicAuth, bearerTokenAuth, tokenFileAuth, withImpersonation } from './auth-providers.js';
import { KubeConfigError } from './errors.js';
import { execCredentialAuth, type ExecClusterInfo, type ExecConfig } from './exec-credential.js';
import type { AuthProvider, RestConfig, TlsConfig } from './rest-config.js';

/** Options of `loadKubeConfig`: which files and context to use instead of `KUBECONFIG` and `current-context`. */
export interface LoadKubeConfigOptions {
  /** One kubeconfig file (like `--kubeconfig`); overrides `KUBECONFIG`. */
  path?: string | undefined;
  /** Context to use instead of `current-context`. */
  context?: string;
  /** Environment to read `KUBECONFIG` and `HOME` from (default `process.env`); exec plugins inherit it. */
  env?: NodeJS.ProcessEnv;
  /** Clock for credential expiry and token-file re-reads. */
  clock?: Clock | undefined;
}

/** Options of `parseKubeConfig`: the text, what errors call it, and the loader's other options. */
export interface ParseKubeConfigOptions extends Omit<LoadKubeConfigOptions, 'path'> {
  /** The kubeconfig's YAML. */
  text: string;
  /** Where the text came from, named by errors in place of a file (e.g. `Secret fleet-system/prod`). */
  origin?: string;
}

type Raw = Record<string, unknown>;

interface Entry {
  file: string;
  /** The folder relative paths resolve against; undefined for text, where they are refused. */
  dir: string | undefined;
  value: Raw;
}

interface Merged {
  files: string[];
  clusters: Map<string, Entry>;
  users: Map<string, Entry>;
  contexts: Map<string, Entry>;
  currentContext?: { name: string; file: string };
}

/** The files to read, in precedence order, and whether missing ones are an error. */
function kubeconfigFiles(options: LoadKubeConfigOptions): { files: string[]; explicit: boolean } {
  if (options.path !== undefined) return { files: [resolve(options.path)], explicit: true };
  const env = options.env ?? process.env;
  const list = env['KUBECONFIG'];
  if (list) {
    const files = [
      ...new Set(
        list
          .split(delimiter)
          .filter((f) => f !== '')
          .map((f) => resolve(f)),
      ),
    ];
    return { files, explicit: false };
  }
  return { files: [join(env['HOME'] ?? homedir(), '.kube', 'config')], explicit: false };
}

function readKubeconfigFile(file: string): Raw {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new KubeConfigError(file, undefined, `cannot read the file: ${(cause as Error).message}`, { cause });
  }
  return parseDocument(file, text);
}

function parseDocument(file: string, text: string): Raw {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (cause) {
    throw new KubeConfigError(file, undefined, `invalid YAML: ${(cause as Error).message}`, { cause });
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new KubeConfigError(file, undefined, 'the document is not a mapping');
  return doc as Raw;
}

function namedEntries(
  file: string,
  doc: Raw,
  key: 'clusters' | 'users' | 'contexts',
  field: 'cluster' | 'user' | 'context',
): [string, Raw][] {
  const list = doc[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new KubeConfigError(file, undefined, `${key} must be a list`);
  return list.map((item: unknown, i) => {
    const named = item as { name?: unknown } & Raw;
    if (typeof named?.name !== 'string' || !named.name) throw new KubeConfigError(file, undefined, `${key}[${i}] has no name`);
    const value = named[field] ?? {};
    if (typeof value !== 'object' || Array.isArray(value))
      throw new KubeConfigError(file, undefined, `${key}[${i}] (${named.name}).${field} must be a mapping`);
    return [named.name, value as Raw];
  });
}

/** Adds one parsed document to `merged`: names it does not define yet, and its current-context if none is set. */
function mergeDocument(merged: Merged, file: string, dir: string | undefined, doc: Raw): void {
  merged.files.push(file);
  for (const [map, key, field] of [
    [merged.clusters, 'clusters', 'cluster'],
    [merged.users, 'users', 'user'],
    [merged.contexts, 'contexts', 'context'],
  ] as const) {
    for (const [name, value] of namedEntries(file, doc, key, field)) if (!map.has(name)) map.set(name, { file, dir, value });
  }
  const cc = doc['current-context'];
  if (!merged.currentContext && typeof cc === 'string' && cc) merged.currentContext = { name: cc, file };
}

const emptyMerged = (): Merged => ({ files: [], clusters: new Map(), users: new Map(), contexts: new Map() });

/** Loads a kubeconfig and resolves one context into a `RestConfig`. */
export function loadKubeConfig(options: LoadKubeConfigOptions = {}): RestConfig {
  const { files, explicit } = kubeconfigFiles(options);
  const merged = emptyMerged();
  for (const file of files) if (explicit || existsSync(file)) mergeDocument(merged, file, dirname(file), readKubeconfigFile(file));
  const where = merged.files.length > 0 ? merged.files.join(delimiter) : files.join(delimiter);
  if (merged.files.length === 0) throw new KubeConfigError(where, options.context, 'no kubeconfig file exists');
  return resolveContext(merged, where, options);
}

/**
 * Parses a kubeconfig held as text (client-go's `RESTConfigFromKubeConfig`) and resolves one context
 * into a `RestConfig`, by the loader's rules. Its credentials and certificates must be inline: a
 * relative file path in it has no folder to resolve against and is refused.
 */
export function parseKubeConfig(options: ParseKubeConfigOptions): RestConfig {
  const origin = options.origin ?? '<kubeconfig text>';
  const merged = emptyMerged();
  mergeDocument(merged, origin, undefined, parseDocument(origin, options.text));
  return resolveContext(merged, origin, options);
}

function resolveContext(merged: Merged, where: string, options: Omit<LoadKubeConfigOptions, 'path'>): RestConfig {
  const contextName = options.context ?? merged.currentContext?.name;
  if (!contextName) throw new KubeConfigError(where, undefined, 'no context was chosen and current-context is not set');
  const ctxEntry = merged.contexts.get(contextName);
  if (!ctxEntry) {
    const known = [...merged.contexts.keys()].join(', ') || 'none';
    throw new KubeConfigError(
      merged.currentContext && !options.context ? merged.currentContext.file : where,
      contextName,
      `context not found (known: ${known})`,
    );
  }
  const ctx = ctxEntry.value;
  const err = (file: string, reason: string, cause?: unknown): KubeConfigError =>
    new KubeConfigError(file, contextName, reason, cause === undefined ? undefined : { cause });

  const clusterName = str(ctx['cluster']);
  if (!clusterName) throw err(ctxEntry.file, 'the context names no cluster');
  const clusterEntry = merged.clusters.get(clusterName);
  if (!clusterEntry) throw err(ctxEntry.file, `cluster ${JSON.stringify(clusterName)} not found`);
  const userName = str(ctx['user']);
  const userEntry = userName ? merged.users.get(userName) : undefined;
  if (userName && !userEntry) throw err(ctxEntry.file, `user ${JSON.stringify(userName)} not found`);

  const clock = options.clock ?? realClock;
  const cluster = clusterEntry.value;
  const server = str(cluster['server']);
  if (!server) throw err(clusterEntry.file, `cluster ${JSON.stringify(clusterName)} has no server`);
  try {
    new URL(server);
  } catch (cause) {
    throw err(clusterEntry.file, `cluster ${JSON.stringify(clusterName)} server ${JSON.stringify(server)} is not a URL`, cause);
  }
  const fileOf = (entry: Entry, p: string): string => {
    if (isAbsolute(p)) return p;
    if (entry.dir === undefined) throw err(entry.file, `relative path ${JSON.stringify(p)} in a kubeconfig that is not a file`);
    return resolve(entry.dir, p);
  };
  const material = (entry: Entry, what: string, dataKey: string, fileKey: string): Buffer | undefined => {
    const data = str(entry.value[dataKey]);
    if (data) {
      if (!/^[A-Za-z0-9+/=\s]*$/.test(data)) throw err(entry.file, `${what}: ${dataKey} is not valid base64`);
      return Buffer.from(data, 'base64');
    }
    const path = str(entry.value[fileKey]);
    if (!path) return undefined;
    const full = fileOf(entry, path);
    try {
      return readFileSync(full);
    } catch (cause) {
      throw err(entry.file, `${what}: cannot read ${fileKey} ${full}: ${(cause as Error).message}`, cause);
    }
  };

  const tls: TlsConfig = {};
  const ca = material(clusterEntry, `cluster ${JSON.stringify(clusterName)}`, 'certificate-authority-data', 'certificate-authority');
  if (ca) tls.ca = ca;
  if (cluster['insecure-skip-tls-verify'] === true) tls.insecureSkipVerify = true;
  const serverName = str(cluster['tls-server-name']);
  if (serverName) tls.serverName = serverName;

  let auth: AuthProvider | undefined;
  if (userEntry) {
    const user = userEntry.value;
    const what = `user ${JSON.stringify(userName)}`;
    const cert = material(userEntry, what, 'client-certificate-data', 'client-certificate');
    const key = material(userEntry, what, 'client-key-data', 'client-key');
    if ((cert === undefined) !== (key === undefined))
      throw err(userEntry.file, `${what}: a client certificate needs both certificate and key`);
    if (cert && key) {
      tls.cert = cert;
      tls.key = key;
    }
    const token = str(user['token']);
    const tokenFile = str(user['tokenFile']);
    const username = str(user['username']);
    const exec = user['exec'];
    const methods = [token || tokenFile ? 'token' : '', username ? 'basic auth' : '', exec ? 'exec' : ''].filter(Boolean);
    if (user['auth-provider']) {
      const name = str((user['auth-provider'] as Raw)['name']) ?? '?';
      throw err(userEntry.file, `${what}: auth-provider ${JSON.stringify(name)} is not supported; use an exec credential plugin`);
    }
    if (methods.length > 1)
      throw err(userEntry.file, `${what}: more than one authentication method (${methods.join(', ')}); only one is allowed`);
    const source = { file: userEntry.file, context: contextName };
    if (tokenFile) auth = tokenFileAuth({ path: fileOf(userEntry, tokenFile), clock, initialToken: token, source });
    else if (token) auth = bearerTokenAuth(token);
    else if (username) auth = basicAuth(username, str(user['password']) ?? '');
    else if (exec) {
      auth = execCredentialAuth({
        exec: execConfig(exec, (reason) => err(userEntry.file, `${what}: ${reason}`)),
        clock,
        file: userEntry.file,
        context: contextName,
        cluster: clusterInfo(server, cluster, ca),
        env: options.env,
      });
    }
    const as = str(user['as']);
    const asGroups = user['as-groups'];
    const asUid = str(user['as-uid']);
    if (as || asUid || (Array.isArray(asGroups) && asGroups.length > 0)) {
      auth = withImpersonation(auth, {
        user: as,
        uid: asUid,
        groups: Array.isArray(asGroups) ? asGroups.map(String) : undefined,
        extra: (user['as-user-extra'] as Record<string, string[]> | undefined) ?? undefined,
      });
    }
  }

  const config: RestConfig = { server, source: { file: ctxEntry.file, context: contextName } };
  if (Object.keys(tls).length > 0) config.tls = tls;
  if (auth) config.auth = auth;
  const proxyUrl = str(cluster['proxy-url']);
  if (proxyUrl) {
    if (!proxyUrl.startsWith('http://'))
      throw err(clusterEntry.file, `cluster ${JSON.stringify(clusterName)}: proxy-url ${proxyUrl} is not supported (only http:// proxies)`);
    config.proxyUrl = proxyUrl;
  }
  const namespace = str(ctx['namespace']);
  config.namespace = namespace ?? 'default';
  return config;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function execConfig(raw: unknown, fail: (reason: string) => KubeConfigError): ExecConfig {
  const e = raw as Raw;
  if (typeof e !== 'object' || e === null) throw fail('exec must be a mapping');
  const command = str(e['command']);
  if (!command) throw fail('exec.command is required');
  const apiVersion = str(e['apiVersion']);
  if (!apiVersion) throw fail('exec.apiVersion is required');
  const args = e['args'] ?? [];
  if (!Array.isArray(args)) throw fail('exec.args must be a list');
  const env = e['env'] ?? [];
  if (!Array.isArray(env) || env.some((x: Raw) => typeof x?.['name'] !== 'string')) throw fail('exec.env must be a list of {name, value}');
  const out: ExecConfig = {
    apiVersion,
    command,
    args: args.map(String),
    env: (env as Raw[]).map((x) => ({ name: String(x['name']), value: String(x['value'] ?? '') })),
  };
  const hint = str(e['installHint']);
  if (hint) out.installHint = hint;
  if (e['provideClusterInfo'] === true) out.provideClusterInfo = true;
  const mode = str(e['interactiveMode']);
  if (mode) {
    if (mode !== 'Never' && mode !== 'IfAvailable' && mode !== 'Always')
      throw fail(`exec.interactiveMode ${JSON.stringify(mode)} is not Never, IfAvailable or Always`);
    out.interactiveMode = mode;
  }
  return out;
}

function clusterInfo(server: string, cluster: Raw, ca: Buffer | undefined): ExecClusterInfo {
  const info: ExecClusterInfo = { server };
  const sn = str(cluster['tls-server-name']);
  if (sn) info['tls-server-name'] = sn;
  if (cluster['insecure-skip-tls-verify'] === true) info['insecure-skip-tls-verify'] = true;
  if (ca) info['certificate-authority-data'] = ca.toString('base64');
  const proxy = str(cluster['proxy-url']);
  if (proxy) info['proxy-url'] = proxy;
  const ext = (cluster['extensions'] as { name?: string; extension?: unknown }[] | undefined)?.find(
    (x) => x?.name === 'client.authentication.k8s.io/exec',
  );
  if (ext) info.config = ext.extension;
  return info;
}
