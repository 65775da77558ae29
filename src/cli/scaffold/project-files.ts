/**
 * The project-wide files of a scaffolded operator: package.json (with the scripts a kubebuilder user
 * looks for: install, deploy, undeploy, docker-build, lint, e2e), a strict tsconfig, the process
 * entry (leader election, health probes, metrics, a clean stop on SIGTERM), the Deployment that runs
 * it, the Dockerfile that builds its image, the end-to-end script, a CI workflow, the README and
 * .gitignore. The kinds' own files come from kind-files.ts, the RBAC from rbac-files.ts, the
 * kustomize layout from config-files.ts. Invariant: nothing here names a kind but the recordings the
 * scripts' `converge rbac` reads, the one place `converge create api` extends; and the Dockerfile
 * copies every file `npm ci` reads (package.json, the lock file, and vendor/ when kube-converge is
 * vendored there), so the image builds from the project's folder alone.
 */
import type { ProjectNames } from './names.js';
import type { ScaffoldFile } from './write-files.js';
import { local } from './local-import.js';
import { API_MODULE, CRD_DIR } from './starter-crd.js';

/**
 * The versions the project's own dependencies get: those kube-converge is built and tested with.
 * typebox for its definitions, yaml for its tests to read config/rbac/, and the tools.
 */
export interface DependencyVersions {
  typebox: string;
  yaml: string;
  typescript: string;
  typesNode: string;
}

/** `rbac` is the `converge rbac` command over the first kind's recording; `vendored` says whether vendor/ holds kube-converge. */
export function projectFiles(p: ProjectNames, versions: DependencyVersions, rbac: string, vendored: boolean): ScaffoldFile[] {
  return [
    { path: 'package.json', content: packageJson(p, versions, rbac) },
    { path: 'tsconfig.json', content: tsconfig() },
    { path: '.gitignore', content: 'node_modules/\ndist/\n*.kubeconfig\n.e2e/\n' },
    { path: '.dockerignore', content: 'node_modules\ndist\ntest\n*.kubeconfig\n.e2e\n' },
    { path: 'README.md', content: readme(p) },
    { path: 'Dockerfile', content: dockerfile(p, vendored) },
    { path: 'src/main.ts', content: mainFile(p) },
    { path: 'config/manager/manager.yaml', content: managerManifest(p) },
    { path: E2E_SCRIPT, content: e2eScript() },
    { path: '.github/workflows/ci.yml', content: ciWorkflow() },
  ];
}

const E2E_SCRIPT = 'scripts/e2e.mjs';

/** The commands of the project's scripts; `npm test` runs the checks and the tests on the compiled output. */
export const GENERATE_CRDS = `converge generate ${API_MODULE} --out ${CRD_DIR}`;

function packageJson(p: ProjectNames, v: DependencyVersions, rbac: string): string {
  const pkg = {
    name: p.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20' },
    scripts: {
      build: 'tsc',
      start: 'node --enable-source-maps dist/src/main.js',
      generate: `tsc && ${GENERATE_CRDS}`,
      // From the recordings of the last npm test: run it after a test failed for want of a permission.
      rbac: rbac,
      test: `tsc && ${GENERATE_CRDS} --check && node --test dist/test/*.test.js && ${rbac} --check`,
      lint: 'tsc --noEmit',
      // Not "install": npm runs a script of that name after every npm install.
      'install-crds': 'kubectl apply -k config/crd',
      'uninstall-crds': 'kubectl delete -k config/crd --ignore-not-found',
      deploy: 'kubectl apply -k config/default',
      undeploy: 'kubectl delete -k config/default --ignore-not-found',
      'docker-build': `docker build -t \${IMG:-${p.name}:0.1.0} .`,
      e2e: `tsc && node ${E2E_SCRIPT}`,
    },
    dependencies: { 'kube-converge': p.convergeDependency, typebox: v.typebox },
    devDependencies: { '@types/node': v.typesNode, typescript: v.typescript, yaml: v.yaml },
    // Read by `converge create api`: where new kinds go.
    converge: { group: p.group, version: p.version },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function tsconfig(): string {
  const config = {
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      // Below esnext, so `await using` compiles to code Node.js 20 runs.
      target: 'es2022',
      types: ['node'],
      strict: true,
      exactOptionalPropertyTypes: true,
      // As tsc --init writes it: dependencies' declarations are theirs to check, and it halves the build.
      skipLibCheck: true,
      noUncheckedIndexedAccess: true,
      noImplicitOverride: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      verbatimModuleSyntax: true,
      sourceMap: true,
      rootDir: '.',
      outDir: 'dist',
    },
    include: ['src', 'test'],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

function readme(p: ProjectNames): string {
  return `# ${p.name}

A Kubernetes operator for the \`${p.group}\` API, built with [Converge](https://www.npmjs.com/package/kube-converge).

\`\`\`sh
npm install && npm test    # compile, check the generated manifests are current, run the tests (no cluster needed)
npm run build && npm start # run the operator against the cluster of your kubeconfig (CRDs installed first)
\`\`\`

\`npm test\` starts an in-process Kubernetes-compatible API server for the tests, so it needs nothing
but Node.js 20 or newer.

| script | what it does |
|---|---|
| \`npm test\` | compile, \`converge generate --check\`, the tests, \`converge rbac --check\` |
| \`npm run generate\` | write config/crd/bases/ from src/api/ |
| \`npm run rbac\` | write config/rbac/role.yaml from what the last \`npm test\` recorded |
| \`npm run lint\` | type-check everything (strict) without writing |
| \`npm run install-crds\` / \`uninstall-crds\` | apply / delete config/crd in the cluster of your kubeconfig |
| \`npm run deploy\` / \`undeploy\` | apply / delete config/default: namespace, CRDs, RBAC, Deployment, metrics Service |
| \`npm run docker-build\` | build the image \`\$IMG\` (default \`${p.name}:0.1.0\`) |
| \`npm run e2e\` | the operator as a process against \`converge apiserver\`: apply config/samples, wait for Ready (needs kubectl) |

## Layout

- \`src/api/\`: one schema-first definition per kind (TypeBox), the one source of its types and its CRD.
- \`src/controllers/\`: one controller per kind; \`index.ts\` registers them all.
- \`src/main.ts\`: the process: leader election, \`/healthz\` and \`/readyz\`, \`/metrics\`, a clean stop on SIGTERM.
- \`test/\`: the controllers against the in-process API server, as the operator's ServiceAccount.
- \`config/crd/bases/\`: generated by \`npm run generate\` from \`src/api/\`; \`npm test\` fails while it is stale.
- \`config/rbac/role.yaml\`: what the operator may do, generated by \`npm run rbac\` from what the tests recorded;
  the tests run the operator under it, and \`npm test\` fails when it grants more or less than they used.
- \`config/manager/\`: the namespace and the Deployment that runs the operator (leader election, probes, metrics).
- \`config/default/\`: the overlay \`npm run deploy\` applies, with the metrics Service.
- \`config/samples/\`: one object per kind to try.

## Changing the API

Edit a definition in \`src/api/\`, then \`npm run generate\` and commit what it wrote. When a
controller makes a new call, its test fails for want of the permission, and the failure names the
refused call (403 Forbidden): \`npm run rbac\` adds it to config/rbac/role.yaml, keeping every
permission the file granted (a refused run stops short, so it cannot tell what is no longer used);
run \`npm test\` and \`npm run rbac\` once more to drop what the tests no longer use. Add a kind with
\`npx converge create api <Kind>\` (\`--version v1beta1\`, \`--namespaced=false\` for a cluster-scoped kind).
Add webhooks to a kind with \`npx converge create webhook --kind <Kind>\` and \`--defaulting\`,
\`--programmatic-validation\` or \`--conversion --spoke <version>\` (deploying them needs cert-manager).

## Deploying

\`\`\`sh
npm run docker-build               # IMG=registry.example.com/${p.name}:0.1.0 npm run docker-build
npm run deploy                     # kubectl apply -k config/default
kubectl apply -k config/samples    # then: kubectl get ${'<kind>'} -A
\`\`\`

To try the manifests without a cluster, run \`npx converge apiserver\` in another terminal,
\`export KUBECONFIG=converge.kubeconfig\`, and \`npm run deploy\`: everything applies, though
nothing runs the Deployment's Pods there (\`npm run e2e\` runs the operator as a process instead).
`;
}

function dockerfile(p: ProjectNames, vendored: boolean): string {
  // The vendored kube-converge tarball is what package.json's file: dependency names: npm ci reads it.
  const vendor = vendored ? 'COPY vendor ./vendor\n' : '';
  return `# The ${p.name} image: the first stage compiles, the second holds production dependencies and the
# compiled JavaScript only, and runs as a numeric non-root user (so runAsNonRoot can be verified).
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
${vendor}RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
RUN npx tsc

FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
${vendor}RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
USER 1000:1000
EXPOSE 8080 8081
ENTRYPOINT ["node", "--enable-source-maps", "dist/src/main.js"]
CMD ["--leader-elect=true", "--metrics-bind-address=:8080", "--health-probe-bind-address=:8081"]
`;
}

function mainFile(p: ProjectNames): string {
  return `/**
 * The operator as a process: the image's entry (Dockerfile) and \`npm start\`. One manager with every
 * controller, the leader-election Lease in the operator's own namespace (so only one replica
 * reconciles), \`/healthz\` and \`/readyz\`, \`/metrics\`, and a clean stop on SIGTERM or SIGINT that
 * releases the Lease, so a successor takes over at once.
 *
 *   node dist/src/main.js --leader-elect=true --metrics-bind-address=:8080 --health-probe-bind-address=:8081
 *
 * Configuration: KUBECONFIG, else the pod's service account, else ~/.kube/config; POD_NAMESPACE is
 * where the Lease lives (the Deployment sets it to its own namespace).
 */
import { parseArgs } from 'node:util';
import { getConfig } from 'kube-converge/client';
import { createManager, installSignalHandlers, ping } from 'kube-converge/manager';
import { InvalidOptionError, jsonLogger } from 'kube-converge/meta';
import { setupControllers } from ${local('./controllers/index.js')};

const { values } = parseArgs({
  options: {
    // Off by default for \`npm start\` on a laptop; the Deployment turns it on.
    'leader-elect': { type: 'string', default: 'false' },
    'metrics-bind-address': { type: 'string', default: ':8080' },
    'health-probe-bind-address': { type: 'string', default: ':8081' },
  },
  strict: true,
});

const leaderElect = values['leader-elect'];
if (leaderElect !== 'true' && leaderElect !== 'false') {
  throw new InvalidOptionError('--leader-elect', \`must be true or false, got \${JSON.stringify(leaderElect)}\`);
}

const logger = jsonLogger();
const signals = installSignalHandlers();
try {
  const mgr = await createManager({
    config: getConfig(),
    logger,
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    ...(leaderElect === 'true'
      ? { leaderElection: { id: '${p.name}-leader', namespace: process.env['POD_NAMESPACE'] ?? '${p.namespace}', releaseOnCancel: true } }
      : {}),
  });
  mgr.addHealthzCheck('ping', ping);
  setupControllers(mgr);
  await mgr.start(signals.signal);
} catch (err) {
  logger.error({ err }, 'operator stopped with an error');
  process.exitCode = 1;
} finally {
  signals.remove();
}
`;
}

function managerManifest(p: ProjectNames): string {
  return `# The operator's Deployment, in its namespace (namespace.yaml), as its ServiceAccount (config/rbac/):
# two replicas, of which only the holder of the leader-election Lease reconciles while the other waits,
# ready, to take over. The probes use the manager's /healthz and /readyz (ready once the caches
# synced); /metrics is on the "metrics" port.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${p.name}
  namespace: ${p.namespace}
  labels:
    app.kubernetes.io/name: ${p.name}
spec:
  replicas: 2
  selector:
    matchLabels:
      app.kubernetes.io/name: ${p.name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${p.name}
    spec:
      serviceAccountName: ${p.name}
      # Longer than the manager's 30 s graceful shutdown, so reconciles in flight finish on SIGTERM.
      terminationGracePeriodSeconds: 40
      securityContext:
        runAsNonRoot: true
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: operator
          image: ${p.name}:0.1.0
          imagePullPolicy: IfNotPresent
          args:
            - --leader-elect=true
            - --metrics-bind-address=:8080
            - --health-probe-bind-address=:8081
          env:
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
          ports:
            - name: metrics
              containerPort: 8080
              protocol: TCP
            - name: health
              containerPort: 8081
              protocol: TCP
          livenessProbe:
            httpGet:
              path: /healthz
              port: health
            initialDelaySeconds: 10
            periodSeconds: 20
          readinessProbe:
            httpGet:
              path: /readyz
              port: health
            initialDelaySeconds: 2
            periodSeconds: 10
          resources:
            requests:
              cpu: 50m
              memory: 96Mi
            limits:
              memory: 256Mi
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop: [ALL]
`;
}

/**
 * The end-to-end run: the compiled operator as a process against `converge apiserver` (no cluster):
 * the CRDs and samples applied with kubectl, then every sample must report Ready.
 */
function e2eScript(): string {
  return `// npm run e2e: the operator as a process against a local converge apiserver, driven by kubectl, as
// it would run against a cluster: install the CRDs and its namespace, start the operator, apply config/samples, wait
// until every sample is Ready. Needs kubectl on the PATH; leaves nothing behind but .e2e/.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dir = resolve('.e2e');
mkdirSync(dir, { recursive: true });
const kubeconfig = join(dir, 'kubeconfig');
const env = { ...process.env, KUBECONFIG: kubeconfig };
const children = [];
const start = (cmd, args, extraEnv = {}) => {
  const child = spawn(cmd, args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return child;
};
const kubectl = (...args) => execFileSync('kubectl', args, { env, stdio: 'inherit' });

try {
  const server = start(process.execPath, ['node_modules/kube-converge/dist/cli/main.js', 'apiserver', '--kubeconfig', kubeconfig]);
  await new Promise((ready, fail) => {
    let out = '';
    server.stdout.setEncoding('utf8').on('data', (c) => (out += c) && out.includes('kubeconfig written') && ready());
    server.once('exit', (code) => fail(new Error(\`converge apiserver exited with \${code}\`)));
  });
  // The operator's namespace too: a cluster-scoped kind keeps its ConfigMaps there.
  kubectl('apply', '-k', 'config/crd');
  kubectl('apply', '-f', 'config/manager/namespace.yaml');
  kubectl('wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all');
  // Without webhooks (converge create webhook): their serving certificate comes from cert-manager in a cluster.
  const operator = start(process.execPath, ['--enable-source-maps', 'dist/src/main.js', '--metrics-bind-address=0', '--health-probe-bind-address=0'], {
    ENABLE_WEBHOOKS: 'false',
  });
  operator.stdout.pipe(process.stdout);
  kubectl('apply', '-k', 'config/samples');
  const samples = readdirSync('config/samples').filter((f) => f !== 'kustomization.yaml');
  for (const f of samples) kubectl('wait', '--for=condition=Ready', '--timeout=60s', '-f', join('config/samples', f));
  console.log(\`e2e: \${samples.length} sample(s) Ready\`);
} finally {
  for (const child of children.reverse()) child.kill('SIGTERM');
}
`;
}

/** CI on every push and pull request: install from the lock file, lint, test. */
function ciWorkflow(): string {
  return `name: ci
on:
  push:
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - run: npm run lint
      - run: npm test
`;
}
