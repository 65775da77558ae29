// Imports the CLI's private init and create commands, run on a temporary folder without a process.
// `converge init` and `converge create api` on disk: what a project gets, how kinds are wired in, and
// that every refusal leaves the folder as it was. (The e2e test under test/e2e/init installs such a
// project and runs its own npm test.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCreate, runInit } from '../../src/cli/init.js';
import { parseAllDocuments } from 'yaml';
import { runConverge } from '../e2e/apiserver-process.js';
import { run } from '../e2e/package/pack.js';

const ownVersion = (JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'converge-init-unit-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every file under `dir`, relative, sorted. */
async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('converge init', () => {
  it('writes the project into ./<name>, with the kind and group derived from the name and the running kube-converge as dependency', async () => {
    await withDir(async (dir) => {
      const out = await runInit(['demo-op'], dir);
      assert.match(out, /^Created demo-op \(kind Demo, group demo-op\.example\.com\)/);
      const project = join(dir, 'demo-op');
      const files = await filesIn(project);
      for (const f of [
        'package.json',
        'tsconfig.json',
        '.gitignore',
        'Dockerfile',
        'README.md',
        'src/main.ts',
        'src/api/index.ts',
        'src/api/demo.ts',
        'src/controllers/index.ts',
        'src/controllers/demo.ts',
        'test/demo.test.ts',
        'config/manager/manager.yaml',
        'config/manager/namespace.yaml',
        'config/crd/kustomization.yaml',
        'config/crd/bases/demo-op.example.com_demos.yaml',
        'config/rbac/kustomization.yaml',
        'config/default/kustomization.yaml',
        'config/default/metrics-service.yaml',
        'config/samples/demo-op.example.com_v1alpha1_demo.yaml',
        'scripts/e2e.mjs',
        '.github/workflows/ci.yml',
      ]) {
        assert.ok(files.includes(f), `${f} is written (got ${files.join(', ')})`);
      }
      const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
        scripts: Record<string, string>;
        converge: unknown;
      };
      assert.equal(pkg.dependencies['kube-converge'], `^${ownVersion}`);
      assert.match(pkg.scripts['test']!, /converge generate .* --check/);
      for (const script of ['install-crds', 'deploy', 'undeploy', 'docker-build', 'lint', 'e2e']) assert.ok(pkg.scripts[script], script);
      // npm runs a script named install after every npm install: the CRDs must not go there.
      assert.equal(pkg.scripts['install'], undefined);
      assert.doesNotMatch(await readFile(join(project, 'Dockerfile'), 'utf8'), /vendor/);
      assert.deepEqual(pkg.converge, { group: 'demo-op.example.com', version: 'v1alpha1' });
      assert.match(await readFile(join(project, 'src/api/demo.ts'), 'utf8'), /group: 'demo-op\.example\.com',\n\s+kind: 'Demo',/);
      assert.equal(JSON.parse(await readFile(join(project, 'tsconfig.json'), 'utf8')).compilerOptions.strict, true);
    });
  });

  it('takes the folder, group and kind from --dir, --group and --kind', async () => {
    await withDir(async (dir) => {
      await runInit(['shop', '--dir', 'ops/shop', '--group', 'shop.acme.io', '--kind', 'Store'], dir);
      const api = await readFile(join(dir, 'ops/shop/src/api/store.ts'), 'utf8');
      assert.match(api, /group: 'shop\.acme\.io',\n\s+kind: 'Store',/);
    });
  });

  it('refuses a folder that is not empty, and leaves it as it was', async () => {
    await withDir(async (dir) => {
      await mkdir(join(dir, 'demo-op'));
      await writeFile(join(dir, 'demo-op', 'notes.txt'), 'mine');
      await assert.rejects(runInit(['demo-op'], dir), /demo-op is not empty \(notes\.txt\).*nothing was written/);
      assert.deepEqual(await filesIn(join(dir, 'demo-op')), ['notes.txt']);
    });
  });

  it('refuses a project name, group or kind Kubernetes would refuse, naming what is wrong', async () => {
    await withDir(async (dir) => {
      await assert.rejects(runInit(['Demo'], dir), /project name must be lower-case/);
      await assert.rejects(runInit(['demo', '--group', 'nodot'], dir), /group must be a DNS subdomain with a dot/);
      await assert.rejects(runInit(['demo', '--kind', 'backup'], dir), /kind must be UpperCamelCase/);
      assert.deepEqual(await readdir(dir), []);
    });
  });

  it('exits 2 with the usage for a bad argument and 1 for a folder in the way, as a process', async () => {
    await withDir(async (dir) => {
      const bad = runConverge(['init', 'Bad_Name', '--dir', dir]);
      assert.equal(await bad.exited, 2);
      assert.match(bad.err(), /project name must be lower-case[\s\S]*Usage:\n {2}converge init /);
      await writeFile(join(dir, 'x'), '');
      const taken = runConverge(['init', 'demo', '--dir', dir]);
      assert.equal(await taken.exited, 1);
      assert.match(taken.err(), /is not empty \(x\)/);
    });
  });
});

describe('converge init --kube-converge', () => {
  it('depends on a version or range from the registry as given', async () => {
    await withDir(async (dir) => {
      await runInit(['demo-op', '--kube-converge', '~0.2.1'], dir);
      const pkg = JSON.parse(await readFile(join(dir, 'demo-op/package.json'), 'utf8')) as { dependencies: Record<string, string> };
      assert.equal(pkg.dependencies['kube-converge'], '~0.2.1');
    });
  });

  it('vendors a tarball into vendor/, names it file:vendor/…, and copies vendor/ into the image before npm ci', async () => {
    await withDir(async (dir) => {
      const tarball = join(dir, 'kube-converge-9.8.7.tgz');
      await writeFile(tarball, 'not really gzip: copied byte for byte');
      const out = await runInit(['demo-op', '--kube-converge', 'kube-converge-9.8.7.tgz'], dir);
      assert.match(out, /kube-converge vendored as vendor\/kube-converge-9\.8\.7\.tgz/);
      const project = join(dir, 'demo-op');
      assert.equal(await readFile(join(project, 'vendor/kube-converge-9.8.7.tgz'), 'utf8'), 'not really gzip: copied byte for byte');
      const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      assert.equal(pkg.dependencies['kube-converge'], 'file:vendor/kube-converge-9.8.7.tgz');
      const dockerfile = await readFile(join(project, 'Dockerfile'), 'utf8');
      // Both stages run npm ci, and each must see the tarball first.
      assert.equal(dockerfile.match(/COPY vendor \.\/vendor\nRUN npm ci/g)?.length, 2, dockerfile);
    });
  });

  it('refuses a path that does not exist, a file that is no tarball and a folder that is no kube-converge checkout, writing nothing', async () => {
    await withDir(async (dir) => {
      await assert.rejects(runInit(['demo-op', '--kube-converge', './nowhere/x.tgz'], dir), /neither a file or folder .* nor a version/);
      await writeFile(join(dir, 'notes.txt'), '');
      await assert.rejects(runInit(['demo-op', '--kube-converge', 'notes.txt'], dir), /a file must be a \.tgz made by npm pack/);
      await mkdir(join(dir, 'other'));
      await writeFile(join(dir, 'other/package.json'), '{"name":"left-pad"}');
      await assert.rejects(runInit(['demo-op', '--kube-converge', 'other'], dir), /holds left-pad, not kube-converge/);
      assert.deepEqual((await readdir(dir)).sort(), ['notes.txt', 'other']);
    });
  });
});

describe('the deploy overlay', () => {
  it('holds the Namespace and everything in it, the Namespace first as kubectl applies it', async () => {
    await withDir(async (dir) => {
      await runInit(['demo-op'], dir);
      const built = await run('kubectl', ['kustomize', join(dir, 'demo-op/config/default')], dir);
      const kinds = parseAllDocuments(built).map((d) => (d.toJS() as { kind: string }).kind);
      assert.equal(kinds[0], 'Namespace');
      for (const kind of [
        'CustomResourceDefinition',
        'ServiceAccount',
        'ClusterRole',
        'ClusterRoleBinding',
        'Role',
        'RoleBinding',
        'Service',
        'Deployment',
      ])
        assert.ok(kinds.includes(kind), `${kind} in ${kinds.join(', ')}`);
    });
  });
});

describe('converge create api', () => {
  it("adds the kind's definition, controller and test, wired in above the markers, keeping the lines the user added, and its recording and permissions to the RBAC", async () => {
    await withDir(async (dir) => {
      await runInit(['demo-op'], dir);
      const project = join(dir, 'demo-op');
      const controllers = join(project, 'src/controllers/index.ts');
      const own = (await readFile(controllers, 'utf8')).replace('setupDemoController(mgr);', 'setupDemoController(mgr);\n  // my own line');
      await writeFile(controllers, own);
      assert.match(await runCreate(['api', 'Backup'], project), /^Added Backup \(backups\.demo-op\.example\.com\/v1alpha1, namespaced\)/);
      for (const f of [
        'src/api/backup.ts',
        'src/controllers/backup.ts',
        'test/backup.test.ts',
        'config/samples/demo-op.example.com_v1alpha1_backup.yaml',
      ]) {
        assert.ok((await filesIn(project)).includes(f), `${f} is written`);
      }
      assert.match(
        await readFile(join(project, 'src/api/index.ts'), 'utf8'),
        /export \{ Demo \} from '\.\/demo\.js';\nexport \{ Backup \} from '\.\/backup\.js';\n/,
      );
      const wired = await readFile(controllers, 'utf8');
      assert.match(wired, /import \{ setupBackupController \} from '\.\/backup\.js';\n\/\/ converge:scaffold:imports/);
      assert.match(
        wired,
        /setupDemoController\(mgr\);\n {2}\/\/ my own line\n {2}setupBackupController\(mgr\);\n {2}\/\/ converge:scaffold:setup/,
      );
      const scripts = (JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
      for (const script of [scripts['test']!, scripts['rbac']!]) {
        assert.match(
          script,
          /converge rbac --recording dist\/rbac\/demo\.json --recording dist\/rbac\/backup\.json --cluster-wide --out config\/rbac\/role\.yaml/,
        );
      }
      const role = await readFile(join(project, 'config/rbac/role.yaml'), 'utf8');
      assert.match(role, /- backups\/status\n/);
      assert.match(role, /- demos\/status\n/);
      // setControllerReference on each kind's ConfigMap: the API server asks for update on the owner's finalizers.
      assert.match(role, /- backups\/finalizers\n/);
      assert.match(role, /- demos\/finalizers\n/);
      assert.match(
        role,
        /^# Regenerate: converge rbac --recording dist\/rbac\/demo\.json --recording dist\/rbac\/backup\.json --cluster-wide --out config\/rbac\/role\.yaml$/m,
      );
      assert.match(
        await readFile(join(project, 'config/crd/kustomization.yaml'), 'utf8'),
        /- bases\/demo-op\.example\.com_backups\.yaml\n/,
      );
      assert.match(
        await readFile(join(project, 'config/samples/kustomization.yaml'), 'utf8'),
        /- demo-op\.example\.com_v1alpha1_backup\.yaml\n/,
      );
      // The kind is in each ConfigMap's name: two kinds never claim the same one.
      assert.match(await readFile(join(project, 'src/controllers/backup.ts'), 'utf8'), /name: `\$\{req\.name\}-backup`/);
    });
  });

  it('adds a cluster-scoped kind in another version with --namespaced=false --version, and refuses a bad version or flag value', async () => {
    await withDir(async (dir) => {
      await runInit(['demo-op'], dir);
      const project = join(dir, 'demo-op');
      assert.match(
        await runCreate(['api', 'Mirror', '--version', 'v1beta1', '--namespaced=false'], project),
        /mirrors\.demo-op\.example\.com\/v1beta1, cluster-scoped/,
      );
      assert.match(
        await readFile(join(project, 'config/crd/bases/demo-op.example.com_mirrors.yaml'), 'utf8'),
        /scope: Cluster\n[\s\S]*name: v1beta1\n/,
      );
      assert.match(await readFile(join(project, 'src/api/mirror.ts'), 'utf8'), /scope: 'Cluster',[\s\S]*v1beta1: \{/);
      await assert.rejects(runCreate(['api', 'Other', '--version', '1'], project), /version must look like v1/);
      await assert.rejects(runCreate(['api', 'Other', '--namespaced=no'], project), /--namespaced must be true or false/);
    });
  });

  it('refuses a kind that exists and an index file without its marker, writing nothing', async () => {
    await withDir(async (dir) => {
      await runInit(['demo-op'], dir);
      const project = join(dir, 'demo-op');
      const before = await filesIn(project);
      await assert.rejects(
        runCreate(['api', 'Demo'], project),
        /src\/api\/demo\.ts, src\/controllers\/demo\.ts, test\/demo\.test\.ts, .* already exist/,
      );
      const index = join(project, 'src/controllers/index.ts');
      const unmarked = (await readFile(index, 'utf8')).replace(/.*converge:scaffold:setup.*\n/, '');
      await writeFile(index, unmarked);
      await assert.rejects(runCreate(['api', 'Backup'], project), /src\/controllers\/index\.ts has no "\/\/ converge:scaffold:setup" line/);
      assert.deepEqual(await filesIn(project), before);
      assert.equal(await readFile(index, 'utf8'), unmarked);
    });
  });

  it('refuses a folder that converge init did not write', async () => {
    await withDir(async (dir) => {
      await writeFile(join(dir, 'package.json'), '{"name":"other"}');
      await assert.rejects(runCreate(['api', 'Backup'], dir), /has no "converge": \{ "group", "version" \} settings/);
      await assert.rejects(runCreate(['api', 'Backup'], join(dir, 'missing')), /cannot read .*package\.json/);
    });
  });
});

describe('converge create webhook', () => {
  const demoWebhooks = ['webhook', '--kind', 'Demo', '--defaulting', '--programmatic-validation'];

  it("adds a kind's defaulter and validator, wired into main.ts through src/webhooks/index.ts, declared in config/webhook, deployed with a Service and a cert-manager Certificate", async () => {
    await withDir(async (dir) => {
      await runInit(['demo-op'], dir);
      const project = join(dir, 'demo-op');
      assert.match(await runCreate(demoWebhooks, project), /^Added defaulting, validation webhooks of Demo/);
      const files = await filesIn(project);
      for (const f of ['src/webhooks/demo.ts', 'src/webhooks/index.ts', 'test/demo.webhook.test.ts', 'config/webhook/manifests.yaml'])
        assert.ok(files.includes(f), `${f} is written`);
      const main = await readFile(join(project, 'src/main.ts'), 'utf8');
      assert.match(
        main,
        /import \{ setupControllers \} from '\.\/controllers\/index\.js';\nimport \{ setupWebhooks \} from '\.\/webhooks\/index\.js';\n/,
      );
      assert.match(main, /setupControllers\(mgr\);\n {2}if \(process\.env\['ENABLE_WEBHOOKS'\] !== 'false'\) setupWebhooks\(mgr\);\n/);
      const code = await readFile(join(project, 'src/webhooks/demo.ts'), 'utf8');
      assert.match(code, /\.for\(Demo\)\n\s+\.defaulter\(defaultDemo\)\n\s+\.validator\(demoValidator\)\n\s+\.complete\(\);/);
      assert.doesNotMatch(code, /conversion/i);

      const manifests = parseAllDocuments(await readFile(join(project, 'config/webhook/manifests.yaml'), 'utf8')).map(
        (d) =>
          d.toJS() as {
            kind: string;
            metadata: { annotations: Record<string, string> };
            webhooks: { name: string; clientConfig: unknown }[];
          },
      );
      assert.deepEqual(
        manifests.map((m) => [m.kind, m.webhooks.map((w) => w.name)]),
        [
          ['MutatingWebhookConfiguration', ['mdemo-v1alpha1.demo-op.example.com']],
          ['ValidatingWebhookConfiguration', ['vdemo-v1alpha1.demo-op.example.com']],
        ],
      );
      assert.deepEqual(manifests[0]!.webhooks[0]!.clientConfig, {
        service: { namespace: 'demo-op-system', name: 'webhook-service', path: '/mutate-demo-op-example-com-v1alpha1-demo', port: 443 },
      });
      assert.equal(manifests[1]!.metadata.annotations['cert-manager.io/inject-ca-from'], 'demo-op-system/serving-cert');

      const built = parseAllDocuments(await run('kubectl', ['kustomize', join(project, 'config/default')], dir)).map(
        (d) => d.toJS() as { kind: string; metadata: { name: string }; spec?: { template?: { spec: unknown } } },
      );
      const names = built.map((o) => `${o.kind}/${o.metadata.name}`);
      for (const made of [
        'Service/webhook-service',
        'Issuer/selfsigned-issuer',
        'Certificate/serving-cert',
        'MutatingWebhookConfiguration/demo-op-mutating-webhook-configuration',
        'ValidatingWebhookConfiguration/demo-op-validating-webhook-configuration',
      ])
        assert.ok(names.includes(made), `${made} in ${names.join(', ')}`);
      const pod = JSON.stringify(built.find((o) => o.kind === 'Deployment')?.spec?.template?.spec);
      // The certificate's Secret is mounted where the webhook server reads it, next to the port the Service targets.
      assert.match(pod, /"mountPath":"\/tmp\/k8s-webhook-server\/serving-certs"/);
      assert.match(pod, /"secretName":"webhook-server-cert"/);
      assert.match(pod, /"containerPort":9443,"name":"webhook-server"/);
    });
  });

  it("adds a second kind's webhooks to the same index and configurations, keeping the first kind's", async () => {
    await withDir(async (dir) => {
      await runInit(['demo-op'], dir);
      const project = join(dir, 'demo-op');
      await runCreate(['api', 'Backup', '--namespaced=false'], project);
      await runCreate(demoWebhooks, project);
      const overlay = await readFile(join(project, 'config/default/kustomization.yaml'), 'utf8');
      assert.match(await runCreate(['webhook', '--kind', 'Backup', '--programmatic-validation'], project), /validation webhooks of Backup/);
      assert.equal(await readFile(join(project, 'config/default/kustomization.yaml'), 'utf8'), overlay);
      const index = await readFile(join(project, 'src/webhooks/index.ts'), 'utf8');
      assert.match(index, /setupDemoWebhook\(mgr\);\n {2}setupBackupWebhook\(mgr\);\n {2}\/\/ converge:scaffold:setup/);
      assert.equal((await readFile(join(project, 'src/main.ts'), 'utf8')).match(/setupWebhooks\(mgr\)/g)?.length, 1);
      const validating = parseAllDocuments(await readFile(join(project, 'config/webhook/manifests.yaml'), 'utf8'))
        .map((d) => d.toJS() as { kind: string; webhooks: { name: string; rules: { scope: string }[] }[] })
        .find((m) => m.kind === 'ValidatingWebhookConfiguration')!;
      assert.deepEqual(
        validating.webhooks.map((w) => [w.name, w.rules[0]!.scope]),
        [
          ['vdemo-v1alpha1.demo-op.example.com', 'Namespaced'],
          ['vbackup-v1alpha1.demo-op.example.com', 'Cluster'],
        ],
      );
    });
  });

  it('with --conversion --spoke, adds a served version to the definition and the CRD, converted by the webhook behind the Service', async () => {
    await withDir(async (dir) => {
      await runInit(['demo-op'], dir);
      const project = join(dir, 'demo-op');
      assert.match(
        await runCreate(['webhook', '--kind', 'Demo', '--conversion', '--spoke', 'v1beta1'], project),
        /conversion v1alpha1 <-> v1beta1 webhooks of Demo/,
      );
      const crd = parseAllDocuments(
        await readFile(join(project, 'config/crd/bases/demo-op.example.com_demos.yaml'), 'utf8'),
      )[0]!.toJS() as {
        metadata: { annotations: Record<string, string> };
        spec: { versions: { name: string; served: boolean; storage: boolean }[]; conversion: unknown };
      };
      assert.deepEqual(
        crd.spec.versions.map((v) => [v.name, v.served, v.storage]),
        [
          ['v1alpha1', true, true],
          ['v1beta1', true, false],
        ],
      );
      assert.deepEqual(crd.spec.conversion, {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { namespace: 'demo-op-system', name: 'webhook-service', path: '/convert', port: 443 } },
          conversionReviewVersions: ['v1'],
        },
      });
      assert.equal(crd.metadata.annotations['cert-manager.io/inject-ca-from'], 'demo-op-system/serving-cert');
      assert.match(
        await readFile(join(project, 'src/api/demo.ts'), 'utf8'),
        /v1beta1: \{\n\s+served: true,\n\s+storage: false,\n\s+spec: DemoSpecV1beta1,/,
      );
      // No admission webhook: no configurations to list.
      assert.equal((await filesIn(project)).includes('config/webhook/manifests.yaml'), false);
      assert.doesNotMatch(await readFile(join(project, 'config/webhook/kustomization.yaml'), 'utf8'), /manifests/);
    });
  });

  it('refuses no webhook, --conversion without --spoke, a kind the project lacks, a kind that has webhooks and a definition --conversion cannot extend, writing nothing', async () => {
    await withDir(async (dir) => {
      await runInit(['demo-op'], dir);
      const project = join(dir, 'demo-op');
      await assert.rejects(
        runCreate(['webhook', '--kind', 'Demo'], project),
        /say which webhooks to create: --defaulting, --programmatic-validation, --conversion/,
      );
      await assert.rejects(runCreate(['webhook', '--kind', 'Demo', '--conversion'], project), /--conversion needs --spoke VERSION/);
      await assert.rejects(
        runCreate(['webhook', '--kind', 'Demo', '--defaulting', '--version', 'v1'], project),
        /stored in, v1alpha1 .*--version v1 is not it/,
      );
      await assert.rejects(
        runCreate(['webhook', '--kind', 'Demo', '--conversion', '--spoke', 'v1alpha1'], project),
        /--spoke v1alpha1 is the stored version/,
      );
      await assert.rejects(
        runCreate(['webhook', '--kind', 'Backup', '--defaulting'], project),
        /Backup is not a kind of this project: there is no src\/api\/backup\.ts \(add it with converge create api Backup\)/,
      );
      const definition = join(project, 'src/api/demo.ts');
      const edited = `${await readFile(definition, 'utf8')}// mine\n`;
      await writeFile(definition, edited);
      const untouched = await filesIn(project);
      await assert.rejects(
        runCreate(['webhook', '--kind', 'Demo', '--defaulting', '--conversion', '--spoke', 'v1beta1'], project),
        /src\/api\/demo\.ts is no longer the definition converge create api wrote, so --conversion cannot add v1beta1 to it safely; nothing was written/,
      );
      assert.deepEqual(await filesIn(project), untouched);
      await runCreate(demoWebhooks, project);
      const before = await Promise.all((await filesIn(project)).map(async (f) => [f, await readFile(join(project, f), 'utf8')]));
      await assert.rejects(
        runCreate(['webhook', '--kind', 'Demo', '--programmatic-validation'], project),
        /Demo has webhooks already \(src\/webhooks\/demo\.ts\); nothing was written/,
      );
      assert.deepEqual(await Promise.all((await filesIn(project)).map(async (f) => [f, await readFile(join(project, f), 'utf8')])), before);
      assert.equal(await readFile(definition, 'utf8'), edited);
    });
  });

  it('exits 2 with its usage lines and a "did you mean" for a misspelt flag, as a process', async () => {
    await withDir(async (dir) => {
      const bad = runConverge(['create', 'webhook', '--kind', 'Demo', '--defaultin', '--dir', dir]);
      assert.equal(await bad.exited, 2);
      assert.match(
        bad.err(),
        /unknown option --defaultin\nDid you mean "--defaulting"\?[\s\S]*Usage:[\s\S]*converge create webhook --kind KIND/,
      );
    });
  });
});
