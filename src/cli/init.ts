/**
 * `converge init <name>` and `converge create api <Kind>`: scaffold an operator project, then add kinds
 * to it. A project is ready as written: its first `npm install && npm test` compiles it, finds its
 * generated manifests current and runs its tests green. The kube-converge it depends on is the one
 * running the command, with the typebox, TypeScript and Node types versions that one is built with.
 *
 * Invariant: every refusal (a bad name, a non-empty folder, a kind that exists, a missing marker) comes
 * before the first file is written.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { kindFiles } from './scaffold/kind-files.js';
import {
  FIRST_VERSION,
  ScaffoldUsageError,
  checkGroup,
  checkProjectName,
  defaultGroup,
  defaultKind,
  kindNames,
  type ProjectNames,
} from './scaffold/names.js';
import { projectFiles } from './scaffold/project-files.js';
import {
  API_INDEX,
  CONTROLLERS_INDEX,
  apiIndexFile,
  controllersIndexFile,
  wireApi,
  wireController,
  wireRecording,
} from './scaffold/wiring.js';
import { addFiles, writeNewProject } from './scaffold/write-files.js';
import {
  asOperatorFile,
  firstRoleFile,
  leaderElectionRbacFile,
  rbacCommand,
  recordingOf,
  roleFileWith,
  type OperatorIdentity,
} from './scaffold/rbac-files.js';

/** The operator's ServiceAccount and namespace, from the project name. */
const operatorOf = (name: string): OperatorIdentity => ({ name, namespace: `${name}-system` });

export const INIT_USAGE = `Usage:
  converge init <name> [--dir DIR] [--group GROUP] [--kind KIND]
  converge create api <Kind> [--dir DIR]

  init writes a new operator project into DIR (default ./<name>, which must be missing or empty):
  one schema-first kind with its controller and tests, the generated CRD and RBAC, a Deployment,
  a Dockerfile and a README. Then: cd DIR && npm install && npm test.
  --group GROUP   The API group of its kinds (default <name>.example.com).
  --kind KIND     The first kind (default from the name: demo-op gives Demo).

  create api adds a kind to the project in DIR (default .): its definition, controller and test,
  wired into src/api/index.ts, src/controllers/index.ts and the converge rbac commands of
  package.json, its CRD, and its permissions in config/rbac/role.yaml.
`;

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
    options: { dir: { type: 'string' }, group: { type: 'string' }, kind: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return INIT_USAGE;
  if (positionals.length !== 1) throw new ScaffoldUsageError('converge init takes one project name');
  const name = checkProjectName(positionals[0]!);
  const pkg = own();
  const project: ProjectNames = {
    ...operatorOf(name),
    group: checkGroup(values.group ?? defaultGroup(name)),
    version: FIRST_VERSION,
    convergeVersion: pkg.version,
  };
  const first = kindNames(values.kind ?? defaultKind(name), project.group, project.version);
  const dir = resolve(cwd, values.dir ?? name);
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
    ),
    { path: API_INDEX, content: apiIndexFile(first) },
    { path: CONTROLLERS_INDEX, content: controllersIndexFile(first) },
    leaderElectionRbacFile(project),
    firstRoleFile(project, first),
    asOperatorFile(project),
    ...kindFiles(first),
  ]);
  return `Created ${name} (kind ${first.kind}, group ${project.group}) in ${dir}\nNext: cd ${values.dir ?? name} && npm install && npm test\n`;
}

/** Runs `converge create api`; resolves with what to print. */
export async function runCreate(args: string[], cwd: string): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    options: { dir: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return INIT_USAGE;
  if (positionals[0] !== 'api')
    throw new ScaffoldUsageError(`converge create knows "api" only, got ${JSON.stringify(positionals[0] ?? '')}`);
  if (positionals.length !== 2) throw new ScaffoldUsageError('converge create api takes one kind');
  const dir = resolve(cwd, values.dir ?? '.');
  const { name, group, version } = await projectSettings(dir);
  const k = kindNames(positionals[1]!, group, version);
  // Both index files are rewired in memory first: a missing marker refuses before anything is written.
  const apiIndex = wireApi(await readFile(join(dir, API_INDEX), 'utf8'), k);
  const controllersIndex = wireController(await readFile(join(dir, CONTROLLERS_INDEX), 'utf8'), k);
  const pkg = wireRecording(await readFile(join(dir, 'package.json'), 'utf8'), k);
  const role = await roleFileWith(dir, operatorOf(name), pkg.recordings, k);
  await addFiles(dir, kindFiles(k));
  await writeFile(join(dir, API_INDEX), apiIndex);
  await writeFile(join(dir, CONTROLLERS_INDEX), controllersIndex);
  await writeFile(join(dir, 'package.json'), pkg.text);
  await writeFile(join(dir, role.path), role.content);
  return `Added ${k.kind} (${k.plural}.${k.group}/${k.version}) to ${dir}\n`;
}

/** The `converge` settings `converge init` wrote into the project's package.json. */
async function projectSettings(dir: string): Promise<{ name: string; group: string; version: string }> {
  const path = join(dir, 'package.json');
  let pkg: { name?: unknown; converge?: { group?: unknown; version?: unknown } };
  try {
    pkg = JSON.parse(await readFile(path, 'utf8')) as typeof pkg;
  } catch (err) {
    throw new ScaffoldUsageError(
      `cannot read ${path} (${(err as Error).message}): run converge create api in a project converge init made, or give --dir`,
    );
  }
  const { group, version } = pkg.converge ?? {};
  if (typeof group !== 'string' || typeof version !== 'string') {
    throw new ScaffoldUsageError(`${path} has no "converge": { "group", "version" } settings, which converge init writes`);
  }
  return { name: checkProjectName(String(pkg.name)), group: checkGroup(group), version };
}
