/**
 * `converge create webhook --kind <Kind>`: kubebuilder's `create webhook` for a kind `converge create
 * api` made: a defaulting webhook (`--defaulting`), a validating one (`--programmatic-validation`)
 * and a conversion to and from a new version (`--conversion --spoke VERSION`), wired into the
 * manager through src/webhooks/index.ts, deployed through config/webhook and config/certmanager, and
 * tested under TestEnv by the test it writes.
 *
 * Invariant: every refusal (no such kind, no webhook asked for, webhooks the kind has already, a
 * missing marker or anchor, a definition `--conversion` cannot safely extend) comes before the first
 * file is written; a second run for the same kind is refused, never half-applied.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_KUSTOMIZATION,
  MAIN,
  MANAGER_WEBHOOK_PATCH,
  ScaffoldConflictError,
  ScaffoldUsageError,
  WEBHOOK_KUSTOMIZATION,
  WEBHOOK_MANIFESTS,
  WEBHOOKS_INDEX,
  addFiles,
  addPatch,
  addResource,
  checkVersion,
  definitionFile,
  kindNames,
  projectSettings,
  spokePlan,
  starterCrdFile,
  webhookFileOf,
  webhookFiles,
  webhookInfraFiles,
  webhookKustomization,
  webhookManifests,
  webhooksIndexFile,
  wireMain,
  wireWebhook,
  type KindNames,
  type ScaffoldFile,
  type WebhookChoice,
} from './scaffold/index.js';

export const CREATE_WEBHOOK_USAGE = `  converge create webhook --kind KIND [--dir DIR] [--version VERSION] [--defaulting]
      [--programmatic-validation] [--conversion --spoke VERSION]`;

export const CREATE_WEBHOOK_HELP = `  create webhook adds webhooks to a kind of the project in DIR (default .), at least one of:
  --defaulting               A defaulter (a mutating webhook) for the kind's stored version.
  --programmatic-validation  A validator (a validating webhook) for the kind's stored version.
  --conversion --spoke V     A second version V of the kind and a conversion webhook between it and
                             the stored version (the hub); src/api/<kind>.ts must be as create api
                             wrote it.
  --version VERSION          The kind's stored version (default: read from src/api/<kind>.ts).
  It writes src/webhooks/<kind>.ts and test/<kind>.webhook.test.ts, wires them into src/main.ts
  through src/webhooks/index.ts, and adds config/webhook (Service, webhook configurations) and
  config/certmanager (Issuer, Certificate) to config/default, which then needs cert-manager.
`;

/** The version whose `storage: true` follows it, in a definition as kind-files.ts writes it. */
const STORAGE_VERSION = /^ {4}(v[0-9a-z]+): \{\n {6}served: (?:true|false),\n {6}storage: true,/m;
const SCOPE = /^ {2}scope: '(Namespaced|Cluster)',$/m;

/** Runs `converge create webhook` (the arguments after `webhook`); resolves with what to print. */
export async function runCreateWebhook(args: string[], cwd: string): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      kind: { type: 'string' },
      dir: { type: 'string' },
      version: { type: 'string' },
      defaulting: { type: 'boolean' },
      'programmatic-validation': { type: 'boolean' },
      conversion: { type: 'boolean' },
      spoke: { type: 'string' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return `Usage:\n${CREATE_WEBHOOK_USAGE}\n\n${CREATE_WEBHOOK_HELP}`;
  if (positionals.length > 0)
    throw new ScaffoldUsageError(`converge create webhook names its kind with --kind, got ${JSON.stringify(positionals.join(' '))}`);
  if (values.kind === undefined) throw new ScaffoldUsageError('converge create webhook needs --kind KIND');
  const conversion = values.conversion ?? false;
  const choice: WebhookChoice = {
    defaulting: values.defaulting ?? false,
    validation: values['programmatic-validation'] ?? false,
    ...(values.spoke !== undefined ? { spoke: checkVersion(values.spoke) } : {}),
  };
  if (!choice.defaulting && !choice.validation && !conversion)
    throw new ScaffoldUsageError('say which webhooks to create: --defaulting, --programmatic-validation, --conversion (one or more)');
  if (conversion && choice.spoke === undefined)
    throw new ScaffoldUsageError('--conversion needs --spoke VERSION: the version to add, converted to and from the stored one');
  if (!conversion && choice.spoke !== undefined) throw new ScaffoldUsageError('--spoke goes with --conversion');

  const dir = resolve(cwd, values.dir ?? '.');
  const { name, group } = await projectSettings(dir);
  const operator = { name, namespace: `${name}-system` };
  const k = await existingKind(dir, kindNames(values.kind, group, 'v1'), values.version);
  if (choice.spoke === k.version)
    throw new ScaffoldUsageError(`--spoke ${choice.spoke} is the stored version of ${k.kind}; name a new one`);
  if (existsSync(join(dir, webhookFileOf(k)))) {
    throw new ScaffoldConflictError(
      `${k.kind} has webhooks already (${webhookFileOf(k)}); nothing was written. Add another one to that file by hand (and its webhook to ${WEBHOOK_MANIFESTS})`,
    );
  }

  // Everything is computed in memory first: a refusal leaves the project as it was.
  const first = !existsSync(join(dir, WEBHOOKS_INDEX));
  const admission = choice.defaulting || choice.validation;
  const read = (path: string): Promise<string> => readFile(join(dir, path), 'utf8');
  const added: ScaffoldFile[] = [...webhookFiles(operator, k, choice)];
  const rewritten: ScaffoldFile[] = [];
  if (first) {
    added.push({ path: WEBHOOKS_INDEX, content: webhooksIndexFile(k) });
    added.push({ path: WEBHOOK_KUSTOMIZATION, content: webhookKustomization(admission) }, ...webhookInfraFiles(operator));
    rewritten.push({ path: MAIN, content: wireMain(await read(MAIN)) });
  } else {
    rewritten.push({ path: WEBHOOKS_INDEX, content: wireWebhook(await read(WEBHOOKS_INDEX), k) });
    if (admission)
      rewritten.push({
        path: WEBHOOK_KUSTOMIZATION,
        content: addResource(await read(WEBHOOK_KUSTOMIZATION), 'manifests.yaml', WEBHOOK_KUSTOMIZATION),
      });
  }
  if (admission) {
    const current = existsSync(join(dir, WEBHOOK_MANIFESTS)) ? await read(WEBHOOK_MANIFESTS) : undefined;
    rewritten.push({ path: WEBHOOK_MANIFESTS, content: webhookManifests(current, operator, k, choice) });
  }
  let overlay = await read(DEFAULT_KUSTOMIZATION);
  for (const base of ['../webhook', '../certmanager']) overlay = addResource(overlay, base, DEFAULT_KUSTOMIZATION);
  rewritten.push({ path: DEFAULT_KUSTOMIZATION, content: addPatch(overlay, MANAGER_WEBHOOK_PATCH, DEFAULT_KUSTOMIZATION) });
  if (choice.spoke !== undefined) {
    const plan = spokePlan(operator, choice.spoke);
    const definition = `src/api/${k.file}.ts`;
    if ((await read(definition)) !== definitionFile(k)) {
      throw new ScaffoldConflictError(
        `${definition} is no longer the definition converge create api wrote, so --conversion cannot add ${choice.spoke} to it safely; nothing was written. Add the version and a conversion webhook to the definition yourself, or run without --conversion`,
      );
    }
    rewritten.push({ path: definition, content: definitionFile(k, plan) }, starterCrdFile(k, plan));
  }
  await addFiles(dir, added);
  for (const f of rewritten) await writeFile(join(dir, f.path), f.content);
  const what = [
    choice.defaulting && 'defaulting',
    choice.validation && 'validation',
    choice.spoke !== undefined && `conversion ${k.version} <-> ${choice.spoke}`,
  ].filter(Boolean);
  return `Added ${what.join(', ')} webhooks of ${k.kind} to ${dir}\nNext: npm test (a cluster needs cert-manager before npm run deploy)\n`;
}

/** `k` as the project defines it: its scope and stored version read from src/api/<kind>.ts. */
async function existingKind(dir: string, named: KindNames, version: string | undefined): Promise<KindNames> {
  const path = `src/api/${named.file}.ts`;
  const text = await readFile(join(dir, path), 'utf8').catch(() => {
    throw new ScaffoldUsageError(
      `${named.kind} is not a kind of this project: there is no ${path} (add it with converge create api ${named.kind})`,
    );
  });
  const scope = SCOPE.exec(text)?.[1];
  const stored = STORAGE_VERSION.exec(text)?.[1];
  if (scope === undefined)
    throw new ScaffoldConflictError(`cannot find the scope of ${named.kind} (scope: 'Namespaced' or 'Cluster') in ${path}`);
  const chosen = version === undefined ? stored : checkVersion(version);
  if (chosen === undefined)
    throw new ScaffoldUsageError(`cannot find the stored version of ${named.kind} in ${path}; give it with --version`);
  if (stored !== undefined && chosen !== stored) {
    throw new ScaffoldUsageError(
      `the webhooks serve the version ${named.kind} is stored in, ${stored} (${path}); --version ${chosen} is not it`,
    );
  }
  return kindNames(named.kind, named.group, chosen, scope === 'Namespaced');
}
