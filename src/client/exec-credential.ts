/**
 * Exec credential plugins (`users[].user.exec`, `client.authentication.k8s.io/v1` and `v1beta1`):
 * run a command that prints an `ExecCredential` with a token and/or a client certificate. The plugin
 * gets the kubeconfig's `env` on top of ours and `KUBERNETES_EXEC_INFO` (the ExecCredential request,
 * `interactive: false`, plus the cluster when `provideClusterInfo` is set).
 *
 * Invariants: at most one plugin process runs at a time per provider — concurrent first requests share
 * it; its answer is reused until `status.expirationTimestamp` (on the injected clock) or until a 401
 * discards it; a caller whose signal aborts stops waiting, but the run goes on for the others; a
 * failing plugin is a `KubeConfigError` naming the file, the context, the command and its stderr.
 * The plugin's stdout carries the secret, so no error ever quotes it (nor chains a parser error that
 * would): it says what was wrong and how long the output was.
 */
import { execFile } from 'node:child_process';
import { dirname, isAbsolute, resolve } from 'node:path';
import { type Clock } from '../meta/index.js';
import { untilAborted } from '../meta/internal.js';
import { KubeConfigError } from './errors.js';
import type { AuthProvider, Credentials } from './rest-config.js';

export const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;

/** The `exec` stanza of a kubeconfig user. */
export interface ExecConfig {
  apiVersion: string;
  command: string;
  args?: string[];
  env?: { name: string | undefined; value: string }[];
  installHint?: string;
  provideClusterInfo?: boolean;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
}

/** What `provideClusterInfo` passes to the plugin (`spec.cluster`). */
export interface ExecClusterInfo {
  server: string;
  'tls-server-name'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'certificate-authority-data'?: string;
  'proxy-url'?: string;
  config?: unknown;
}

/** Options of `execCredentialAuth`: the kubeconfig's `exec` stanza, the cluster it is for, and the clock that times token expiry. */
export interface ExecAuthOptions {
  exec: ExecConfig;
  clock: Clock;
  /** The kubeconfig file holding the stanza: relative commands resolve against its folder. */
  file?: string;
  context?: string;
  cluster?: ExecClusterInfo;
  /** Base environment for the plugin (default `process.env`). */
  env?: NodeJS.ProcessEnv | undefined;
}

interface Cached {
  creds: Credentials;
  expiresAt: number;
}

/** Credentials from an exec plugin, run again when what it printed expires or the server refuses it with a 401. */
export function execCredentialAuth(options: ExecAuthOptions): AuthProvider {
  const { exec, clock, file, context } = options;
  // Like client-go: a command with a path separator is relative to the kubeconfig's folder; a bare name is looked up on PATH.
  const command = file && !isAbsolute(exec.command) && exec.command.includes('/') ? resolve(dirname(file), exec.command) : exec.command;
  const fail = (reason: string, cause?: unknown): KubeConfigError =>
    new KubeConfigError(file, context, `exec plugin ${JSON.stringify(command)}: ${reason}`, cause === undefined ? undefined : { cause });
  if (!(EXEC_API_VERSIONS as readonly string[]).includes(exec.apiVersion)) {
    throw fail(`apiVersion ${JSON.stringify(exec.apiVersion)} is not supported (use ${EXEC_API_VERSIONS.join(' or ')})`);
  }
  if (exec.interactiveMode === 'Always')
    throw fail('interactiveMode Always needs a terminal, and this client never runs plugins interactively');

  let cached: Cached | undefined;
  let running: Promise<Cached> | undefined;

  const run = (): Promise<Cached> => {
    const request: Record<string, unknown> = { interactive: false };
    if (exec.provideClusterInfo && options.cluster) request['cluster'] = options.cluster;
    const env: NodeJS.ProcessEnv = {
      ...(options.env ?? process.env),
      ...Object.fromEntries((exec.env ?? []).map((e) => [e.name, e.value])),
      KUBERNETES_EXEC_INFO: JSON.stringify({ apiVersion: exec.apiVersion, kind: 'ExecCredential', spec: request }),
    };
    return new Promise<Cached>((resolvePromise, reject) => {
      execFile(command, exec.args ?? [], { env, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) {
          const code = (err as NodeJS.ErrnoException).code;
          const hint = exec.installHint ? `\n${exec.installHint}` : '';
          const why =
            code === 'ENOENT'
              ? 'executable not found'
              : `failed (${err.message.split('\n')[0]})${stderr.trim() ? `: ${stderr.trim()}` : ''}`;
          reject(fail(`${why}${hint}`, err));
          return;
        }
        try {
          resolvePromise(parseExecCredential(stdout, exec.apiVersion, clock));
        } catch (invalid) {
          // Its message is the whole story and quotes nothing of the output; nothing to chain.
          reject(fail((invalid as Error).message));
        }
      });
    });
  };

  const current = (): Promise<Cached> => {
    if (cached && clock.now() < cached.expiresAt) return Promise.resolve(cached);
    running ??= run()
      .then((c) => (cached = c))
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  return {
    async credentials(o) {
      return (await untilAborted(current(), o?.signal)).creds;
    },
    async refresh() {
      cached = undefined;
      return true;
    },
  };
}

/** Validates the plugin's output and turns it into credentials with their expiry (Infinity when none). */
function parseExecCredential(stdout: string, apiVersion: string, clock: Clock): Cached {
  const size = `${Buffer.byteLength(stdout)} bytes`;
  let out: { apiVersion?: unknown; kind?: unknown; status?: Record<string, unknown> };
  try {
    out = JSON.parse(stdout) as typeof out;
  } catch (syntax) {
    throw new Error(`output is not JSON: ${notJsonReason(stdout, syntax)}, ${size}`);
  }
  if (out?.kind !== 'ExecCredential') throw new Error(`output is not an ExecCredential (kind ${describe(out?.kind)}), ${size}`);
  if (out.apiVersion !== apiVersion)
    throw new Error(`output's apiVersion is ${describe(out.apiVersion)}, not ${JSON.stringify(apiVersion)} as configured`);
  const s = out.status;
  if (!s || typeof s !== 'object') throw new Error('printed an ExecCredential without status');
  const { token, clientCertificateData: cert, clientKeyData: key, expirationTimestamp } = s;
  if (typeof token !== 'string' && typeof cert !== 'string') throw new Error('status has neither token nor clientCertificateData');
  if ((typeof cert === 'string') !== (typeof key === 'string'))
    throw new Error('status needs both clientCertificateData and clientKeyData, or neither');
  const creds: Credentials = {};
  if (typeof token === 'string' && token) creds.headers = { authorization: `Bearer ${token}` };
  if (typeof cert === 'string' && typeof key === 'string') {
    creds.cert = cert;
    creds.key = key;
  }
  let expiresAt = Infinity;
  if (expirationTimestamp !== undefined && expirationTimestamp !== null) {
    expiresAt = Date.parse(String(expirationTimestamp));
    if (Number.isNaN(expiresAt)) throw new Error(`status.expirationTimestamp (${describe(expirationTimestamp)}) is not a timestamp`);
  }
  if (expiresAt <= clock.now()) throw new Error(`returned a credential that already expired at ${new Date(expiresAt).toISOString()}`);
  return { creds, expiresAt };
}

/**
 * Where the JSON parser gave up, in words that quote none of the text: V8's own messages include a
 * snippet of the input, which here is the secret. Only the position and the kind of problem are kept.
 */
function notJsonReason(text: string, syntax: unknown): string {
  if (text.trim() === '') return 'it is empty';
  const message = syntax instanceof Error ? syntax.message : '';
  if (message.startsWith('Unexpected end')) return 'it ends before the JSON value does';
  const after = /after JSON at position (\d+)/.exec(message);
  if (after) return `unexpected text after the JSON value at position ${after[1]}`;
  const at = /at position (\d+)/.exec(message);
  if (at) return `unexpected token at position ${at[1]}`;
  // V8 names no position for a token it cannot start a value with; the usual case is the first one.
  const first = text.search(/\S/);
  return /^[[{"\-0-9tfn]/.test(text.slice(first)) ? 'unexpected token' : `unexpected token at position ${first}`;
}

/** A value of the plugin's output, described by type and size, never shown. */
function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (typeof v === 'string') return `a string of ${v.length} characters`;
  return v === null ? 'null' : `of type ${Array.isArray(v) ? 'array' : typeof v}`;
}
