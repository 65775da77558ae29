/**
 * `converge init <name>` and `converge create api <Kind>`: scaffold an operator project, then add kinds
 * to it (`converge create webhook` is passed on to create-webhook.ts). A project is ready as written: its first `npm install && npm test` compiles it, finds its
 * generated manifests current and runs its tests green. The kube-converge it depends on is the
 * running one's version from the registry, another version, or a tarball or checkout vendored into
 * the project (`--kube-converge`), with the typebox, TypeScript and Node types versions the running
 * one is built with.
 *
 * Invariant: every refusal (a bad name, a non-empty folder, a kind that exists, a missing marker) comes
 * before the first file is written.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  kindFiles,
  FIRST_VERSION,
  ScaffoldUsageError,
  checkGroup,
  checkProjectName,
  checkVersion,
  defaultGroup,
  defaultKind,
  kindNames,
  type ProjectNames,
  CRD_KUSTOMIZATION,
  SAMPLES_KUSTOMIZATION,
  addResource,
  configFiles,
  crdFileOf,
  sampleFileOf,
  convergeDependency,
  projectFiles,
  API_INDEX,
  CONTROLLERS_INDEX,
  apiIndexFile,
  controllersIndexFile,
  wireApi,
  wireController,
  wireRecording,
  addFiles,
  assertWritable,
  writeNewProject,
  asOperatorFile,
  firstRoleFile,
  leaderElectionRbacFile,
  rbacCommand,
  recordingOf,
  roleFileWith,
  type OperatorIdentity,
  projectSettings,
} from './scaffold/index.js';
import { CREATE_WEBHOOK_HELP, CREATE_WEBHOOK_USAGE, runCreateWebhook } from './create-webhook.js';

/** The operator's ServiceAccount and namespace, from the project name. */
const operatorOf = (name: string): OperatorIdentity => ({ name, namespace: `${name}-system` });

export const INIT_USAGE = `Usage:
  converge init <name> [--dir DIR] [--group GROUP] [--kind KIND] [--kube-converge VERSION|PATH]
  converge create api <Kind> [--dir DIR] [--version VERSION] [--namespaced=false]
${CREATE_WEBHOOK_USAGE}

  init writes a new operator project into DIR (default ./<name>, which must be missing or empty):
  one schema-first kind with its controller and tests, the generated CRD and RBAC, kustomize
  manifests under config/ (crd, rbac, manager, samples, default), a Dockerfile, a CI workflow and a
  README. Then: cd DIR && npm install && npm test.
  --group GROUP        The API group of its kinds (default <name>.example.com).
  --kind KIND          The first kind (default from the name: demo-op gives Demo).
  --kube-converge X    Where the project gets kube-converge: a version or range from the registry
                       (default ^<this converge's version>), a .tgz made by npm pack, or a
                       kube-converge checkout (packed with npm pack). A tarball or checkout is
                       vendored into vendor/ and package.json names it file:vendor/<tarball>.

  create api adds a kind to the project in DIR (default .): its definition, controller, test and
  sample, wired into src/api/index.ts, src/controllers/index.ts, config/crd and config/samples and
  the converge rbac commands of package.json, its CRD, and its permissions in config/rbac/role.yaml.
  --version VERSION    Its API version (default the project's, v1alpha1 from init).
  --namespaced=false   A cluster-scoped kind (its ConfigMap goes to the operator's namespace).

${CREATE_WEBHOOK_HELP}`;

interface OwnPackage {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** kube-converge's own package.json, two folders above this file (src/cli or dist/cli). */
const own = (): OwnPackage => JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as OwnPackage;

/** Runs `converge init`; resolves with what to print. */
export async function runInit(args: string[], cwd: string): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      dir: { type: 'string' },
      group: { type: 'string' },
      kind: { type: 'string' },
      'kube-converge': { type: 'string' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return INIT_USAGE;
  if (positionals.length !== 1) throw new ScaffoldUsageError('converge init takes one project name');
  const name = checkProjectName(positionals[0]!);
  const pkg = own();
  const group = checkGroup(values.group ?? defaultGroup(name));
  const first = kindNames(values.kind ?? defaultKind(name), group, FIRST_VERSION);
  const dir = resolve(cwd, values.dir ?? name);
  await assertWritable(dir);
  const dependency = await convergeDependency(values['kube-converge'], pkg.version, cwd);
  const project: ProjectNames = { ...operatorOf(name), group, version: FIRST_VERSION, convergeDependency: dependency.spec };
  await writeNewProject(dir, [
    ...projectFiles(
      project,
      {
        typebox: pkg.dependencies['typebox']!,
        yaml: pkg.dependencies['yaml']!,
        typescript: pkg.devDependencies['typescript']!,
        typesNode: pkg.devDependencies['@types/node']!,
      },
      rbacCommand([recordingOf(first)]),
      dependency.vendored !== undefined,
    ),
    ...(dependency.vendored !== undefined ? [dependency.vendored] : []),
    ...configFiles(project, first),
    { path: API_INDEX, content: apiIndexFile(first) },
    { path: CONTROLLERS_INDEX, content: controllersIndexFile(first) },
    leaderElectionRbacFile(project),
    firstRoleFile(project, first),
    asOperatorFile(project),
    ...kindFiles(first, project.namespace),
  ]);
  const from = dependency.vendored !== undefined ? `, kube-converge vendored as ${dependency.vendored.path}` : '';
  return `Created ${name} (kind ${first.kind}, group ${group}${from}) in ${dir}\nNext: cd ${values.dir ?? name} && npm install && npm test\n`;
}

/** Runs `converge create api` or `converge create webhook`; resolves with what to print. */
export async function runCreate(args: string[], cwd: string): Promise<string> {
  if (args[0] === 'webhook') return runCreateWebhook(args.slice(1), cwd);
  const { values, positionals } = parseArgs({
    args,
    options: { dir: { type: 'string' }, version: { type: 'string' }, namespaced: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return INIT_USAGE;
  if (values.namespaced !== undefined && values.namespaced !== 'true' && values.namespaced !== 'false')
    throw new ScaffoldUsageError(`--namespaced must be true or false, got ${JSON.stringify(values.namespaced)}`);
  if (positionals[0] !== 'api')
    throw new ScaffoldUsageError(`converge create knows "api" and "webhook", got ${JSON.stringify(positionals[0] ?? '')}`);
  if (positionals.length !== 2) throw new ScaffoldUsageError('converge create api takes one kind');
  const dir = resolve(cwd, values.dir ?? '.');
  const { name, group, version } = await projectSettings(dir);
  const k = kindNames(positionals[1]!, group, checkVersion(values.version ?? version), values.namespaced !== 'false');
  const operator = operatorOf(name);
  // Every file is rewired in memory first: a missing marker refuses before anything is written.
  const rewired: [string, string][] = [
    [API_INDEX, wireApi(await readFile(join(dir, API_INDEX), 'utf8'), k)],
    [CONTROLLERS_INDEX, wireController(await readFile(join(dir, CONTROLLERS_INDEX), 'utf8'), k)],
    [CRD_KUSTOMIZATION, addResource(await readFile(join(dir, CRD_KUSTOMIZATION), 'utf8'), `bases/${crdFileOf(k)}`, CRD_KUSTOMIZATION)],
    [SAMPLES_KUSTOMIZATION, addResource(await readFile(join(dir, SAMPLES_KUSTOMIZATION), 'utf8'), sampleFileOf(k), SAMPLES_KUSTOMIZATION)],
  ];
  const pkg = wireRecording(await readFile(join(dir, 'package.json'), 'utf8'), k);
  const role = await roleFileWith(dir, operator, pkg.recordings, k);
  await addFiles(dir, kindFiles(k, operator.namespace));
  for (const [path, text] of [...rewired, ['package.json', pkg.text], [role.path, role.content]] as const)
    await writeFile(join(dir, path), text);
  return `Added ${k.kind} (${k.plural}.${k.group}/${k.version}, ${k.namespaced ? 'namespaced' : 'cluster-scoped'}) to ${dir}\n`;
}
