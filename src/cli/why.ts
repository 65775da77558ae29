/**
 * `converge why <kind>/<name> [-n ns] [--cluster member]`: asks a running manager's explain endpoint why an object is or
 * is not converged, and prints the answer as a person reads it — the summary first, then conditions,
 * last reconcile, next attempt, pending finalizers and the owner's reconcile — or the report itself
 * with `-o json`. The manager is found from `--url` or `CONVERGE_MANAGER_URL` (its health-probe base
 * URL, as `mgr.listening()` or the demo prints it); the kind is matched against the kinds the manager
 * lists, by kind, plural or either with its group (`webapp`, `webapps.platform.converge.dev`). With
 * `--cluster`, the object is one of that member cluster of the manager's fleet.
 *
 * Invariant: it only reads; any refusal (no URL, an unknown or ambiguous kind, the manager's 404)
 * becomes a `WhyError` whose message says what to do, and nothing is printed to stdout then.
 */
import { parseArgs } from 'node:util';
import { type ConvergeReport, type ControllerReport } from '../manager/index.js';
import { formatDuration as duration } from '../manager/internal.js';
import { clusterKeyOf } from '../meta/internal.js';

export const WHY_USAGE = `Usage:
  converge why <kind>/<name> [-n NAMESPACE] [--cluster NAME] [--url URL] [-o text|json]

  Asks a running manager why an object is (not) converged.
  --url URL        The manager's health-probe base URL (default: $CONVERGE_MANAGER_URL).
  -n, --namespace  The object's namespace, for namespaced kinds (default "default").
  --cluster NAME   The member cluster of the manager's fleet the object lives in (default: the manager's own).
  -o, --output     text (default) or json (the manager's report as is).
`;

/** A refusal of `converge why`, with the message a person needs. */
export class WhyError extends Error {
  override readonly name = 'WhyError';
  constructor(
    message: string,
    /** 2: the arguments are wrong; 1: the manager could not answer. */
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

interface KnownKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

/** Runs `converge why` with `args`; resolves with what to print on stdout. */
export async function runWhy(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      namespace: { type: 'string', short: 'n' },
      cluster: { type: 'string' },
      url: { type: 'string' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return WHY_USAGE;
  const target = positionals[0];
  const slash = target?.indexOf('/') ?? -1;
  if (positionals.length !== 1 || target === undefined || slash <= 0 || slash === target.length - 1) {
    throw new WhyError(`give one <kind>/<name>, e.g. webapp/shop${positionals.length > 1 ? ` (got ${positionals.join(' ')})` : ''}`, 2);
  }
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new WhyError(`-o must be text or json, got ${output}`, 2);
  const given = values.url ?? env['CONVERGE_MANAGER_URL'];
  if (!given) throw new WhyError("no manager to ask: give --url (the manager's health-probe URL) or set CONVERGE_MANAGER_URL", 2);
  const base = managerUrl(given);

  const kinds = ((await getJson(new URL('/debug/converge/', base))) as { kinds: KnownKind[] }).kinds;
  const kind = matchKind(kinds, target.slice(0, slash));
  const name = target.slice(slash + 1);
  const group = kind.group === '' ? 'core' : kind.group;
  const where = kind.namespaced ? `${encodeURIComponent(values.namespace ?? 'default')}/` : '';
  const url = new URL(`/debug/converge/${group}/${kind.version}/${kind.plural}/${where}${encodeURIComponent(name)}`, base);
  if (values.cluster !== undefined) url.searchParams.set('cluster', values.cluster);
  const report = (await getJson(url)) as ConvergeReport;
  // As kubectl get answers: a missing object is an error, not "converged" (which is what a deletion reaches).
  if (report.object.exists === false) {
    const shown = clusterKeyOf({ namespace: kind.namespaced ? (values.namespace ?? 'default') : '', name, cluster: values.cluster });
    throw new WhyError(`NotFound: ${kind.kind} ${shown} does not exist (${kind.plural}.${group}/${kind.version})`, 1);
  }
  return output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report);
}

/**
 * The manager's base URL from what was typed. A health-probe address as a manager's options take it
 * (`127.0.0.1:8081`, `:8081`, `localhost:8081`) has no scheme; the probe endpoint serves plain HTTP,
 * so that is what it gets. Anything else that is not a URL is refused with the forms that work.
 */
export function managerUrl(given: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(given) ? given : `http://${given.startsWith(':') ? `127.0.0.1${given}` : given}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new WhyError(
      `--url ${JSON.stringify(given)} is not a URL: give the manager's health-probe address, such as http://127.0.0.1:8081 or 127.0.0.1:8081`,
      2,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WhyError(`--url ${JSON.stringify(given)}: the manager answers over http or https, not ${url.protocol.slice(0, -1)}`, 2);
  return url;
}

async function getJson(url: URL): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new WhyError(`cannot reach the manager at ${url.origin}: ${(err as Error).cause ?? (err as Error).message}`, 1);
  }
  const body = await res.text();
  if (!res.ok) throw new WhyError(`the manager answered ${res.status}: ${body.trim()}`, 1);
  try {
    return JSON.parse(body);
  } catch {
    throw new WhyError(`the manager at ${url.origin} did not answer JSON for ${url.pathname}; is it a Converge health-probe URL?`, 1);
  }
}

function matchKind(kinds: readonly KnownKind[], asked: string): KnownKind {
  const a = asked.toLowerCase();
  const matches = kinds.filter((k) => {
    const names = [k.kind.toLowerCase(), k.plural];
    return names.includes(a) || names.some((n) => `${n}.${k.group}` === a);
  });
  if (matches.length === 1) return matches[0]!;
  const list = kinds.map((k) => (k.group ? `${k.plural}.${k.group}` : k.plural)).join(', ');
  if (matches.length === 0) throw new WhyError(`this manager neither reconciles nor caches a kind "${asked}" (it knows: ${list})`, 1);
  throw new WhyError(`"${asked}" is ambiguous: ${matches.map((k) => `${k.plural}.${k.group || 'core'}`).join(', ')}; add the group`, 2);
}

const indent = (lines: string[]): string[] => (lines.length === 0 ? ['  none'] : lines.map((l) => `  ${l}`));

/** The report as a person reads it: the summary, then one section per question. */
export function formatReport(r: ConvergeReport): string {
  const o = r.object;
  const conditions: string[] = [];
  if (o.ready !== undefined && o.ready === 'True') conditions.push('Ready=True');
  for (const c of o.conditionsNotTrue) {
    conditions.push(`${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? `: ${c.message}` : ''}`);
  }
  if (o.conditionsNotTrue.length === 0) conditions.push(conditions.length > 0 ? '(every other condition healthy)' : '(none unhealthy)');
  const own = r.controllers.filter((c) => c.role === 'for');
  const owners = r.controllers.filter((c) => c.role === 'owner');
  const sections: [string, string[]][] = [
    ['Conditions', o.exists === false ? ['(the object does not exist)'] : conditions],
    ['Last reconcile', own.map((c) => `controller ${c.controller}: ${lastReconcile(c)}`)],
    ['Next attempt', own.map((c) => `controller ${c.controller}: ${nextAttempt(c)}`)],
    [
      'Pending finalizers',
      o.deletionTimestamp !== undefined
        ? [`deleting since ${o.deletionTimestamp}, waiting for: ${o.finalizers.join(', ') || 'nothing'}`]
        : [],
    ],
    ['Owner', owners.map((c) => `${c.kind} ${key(c)}, controller ${c.controller}: ${lastReconcile(c)}; next attempt ${nextAttempt(c)}`)],
  ];
  const lines = [r.summary, ''];
  if (o.statusUpToDate !== undefined) lines.push(`Generation ${o.generation}, observed ${o.observedGeneration}`, '');
  for (const [title, body] of sections) lines.push(`${title}:`, ...indent(body), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function key(c: ControllerReport): string {
  return c.request.namespace ? `${c.request.namespace}/${c.request.name}` : c.request.name;
}

function lastReconcile(c: ControllerReport): string {
  const s = c.state;
  if (!s) return 'not seen (never reconciled, or forgotten)';
  if (c.reconcilingForMs !== undefined) return `reconciling for ${duration(c.reconcilingForMs)}`;
  if (s.lastOutcome === undefined) return `${s.phase}, not reconciled yet`;
  const ago = c.lastFinishedAgoMs !== undefined ? ` ${duration(c.lastFinishedAgoMs)} ago` : '';
  const error = s.lastError ? ` — ${s.lastError.reason ? `${s.lastError.reason}: ` : ''}${s.lastError.message}` : '';
  const failures = s.failures > 0 ? ` (${s.failures} failure${s.failures === 1 ? '' : 's'} in a row)` : '';
  return `${s.lastOutcome}${ago}${failures}${error}`;
}

function nextAttempt(c: ControllerReport): string {
  if (c.nextAttemptInMs !== undefined) {
    const when = c.nextAttemptInMs < 0 ? `overdue by ${duration(-c.nextAttemptInMs)}` : `in ${duration(c.nextAttemptInMs)}`;
    return `${when} (${c.state?.phase ?? 'scheduled'})`;
  }
  if (c.state?.phase === 'queued') return 'queued now';
  return `none scheduled${c.state?.phase === 'terminal' ? ' (terminal error: waits for a change)' : ''}`;
}
