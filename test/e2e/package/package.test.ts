// The package as a user gets it. One `npm pack` of a copy of this checkout (its prepack builds dist/
// in the copy, so the repository's own dist/ is never touched while other tests run), installed into
// an empty ES-module app by running the README's Install commands, with the tarball in place of the
// registry name. Every case then works in that one app: import each subpath in Node, type-check and
// run code that uses each layer under the strictest settings, follow the README's first-controller
// steps verbatim, and run the `converge` bin.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { eventually } from 'kube-converge/testing';
import { NPM_FLAGS, cleanEnv as env, packCopy, repo, run, type PackedFile } from './pack.js';

const readme = await readFile(join(repo, 'README.md'), 'utf8');
const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
};
const subpaths = Object.keys(pkg.exports).map((k) => `kube-converge/${k.slice(2)}`);

/** The body of the first fenced block of `lang` after `marker` in the README. */
function readmeBlock(marker: string, lang: string): string {
  const at = readme.indexOf(marker);
  assert.notEqual(at, -1, `README.md no longer contains ${JSON.stringify(marker)}`);
  const open = readme.indexOf('```' + lang + '\n', at);
  assert.notEqual(open, -1, `README.md has no \`\`\`${lang} block after ${JSON.stringify(marker)}`);
  const start = open + lang.length + 4;
  return readme.slice(start, readme.indexOf('```\n', start));
}

/** The app's own TypeScript, without npx's start-up cost where the README does not say `npx`. */
const tsc = (args: string[], cwd: string): Promise<string> =>
  run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), ...args], cwd);

const commandLines = (block: string): string[][] =>
  block
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s+/));

let work = '';
let app = '';
let packed: PackedFile[] = [];
let tarballBytes = 0;

before(
  async () => {
    work = await mkdtemp(join(tmpdir(), 'converge-pack-'));
    const { tarball, files, bytes } = await packCopy(work);
    packed = files;
    tarballBytes = bytes;

    app = join(work, 'app');
    await mkdir(app);
    const versions: Record<string, string> = {
      'kube-converge': tarball,
      typescript: `typescript@${pkg.devDependencies.typescript}`,
      '@types/node': `@types/node@${pkg.devDependencies['@types/node']}`,
    };
    for (const [cmd, ...args] of commandLines(readmeBlock('## Install', 'sh'))) {
      assert.equal(cmd, 'npm', 'the README install steps are npm commands');
      const install = args[0] === 'install';
      // The registry name becomes the tarball, the tools the versions this repository is tested with.
      await run('npm', [...args.map((a) => (install ? (versions[a] ?? a) : a)), ...(install ? NPM_FLAGS : [])], app);
    }
  },
  { timeout: 600_000 },
);

after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed package, installed into an empty app', () => {
  it('ships dist/ with JavaScript, declarations and both kinds of source maps, an executable converge bin, and no tests or benches', async () => {
    const paths = new Set(packed.map((f) => f.path));
    const tops = new Set(packed.map((f) => f.path.split('/')[0]));
    assert.deepEqual([...tops].sort(), ['README.md', 'dist', 'package.json', 'src']);
    assert.ok(!packed.some((f) => /\.(test|bench)\.ts$/.test(f.path)), 'no test or bench file is shipped');
    const modules = packed.filter((f) => f.path.startsWith('dist/') && f.path.endsWith('.js')).map((f) => f.path.slice(0, -3));
    for (const m of modules) for (const ext of ['.js.map', '.d.ts', '.d.ts.map']) assert.ok(paths.has(m + ext), `${m}${ext} is shipped`);
    for (const target of Object.values(pkg.exports).flatMap((e) => Object.values(e as Record<string, string>))) {
      assert.ok(paths.has(target.slice(2)), `export target ${target} is shipped`);
    }
    const bin = packed.find((f) => f.path === 'dist/cli/main.js');
    assert.ok(bin && (bin.mode & 0o111) !== 0, 'the bin is executable in the tarball');
    const installed = await readFile(join(app, 'node_modules/kube-converge/dist/cli/main.js'), 'utf8');
    assert.ok(installed.startsWith('#!/usr/bin/env node\n'), 'the bin keeps its shebang');
    const appPkg = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as { type?: string };
    assert.equal(appPkg.type, 'module', 'the README install steps make the app an ES module package');
    console.log(`tarball: ${packed.length} files, ${(tarballBytes / 1024).toFixed(1)} kB`);
  });

  it('imports every subpath export in Node', async () => {
    const script = `for (const s of ${JSON.stringify(subpaths)}) console.log(s, Object.keys(await import(s)).length);`;
    const out = await run(process.execPath, ['--input-type=module', '-e', script], app);
    for (const s of subpaths) assert.match(out, new RegExp(`^${s} [1-9]\\d*$`, 'm'), `${s} has exports`);
  });

  it('type-checks code using every layer under nodenext and under bundler, with strict, exactOptionalPropertyTypes and skipLibCheck off, and runs it', async () => {
    const dir = join(app, 'every-layer');
    await mkdir(dir);
    await writeFile(join(dir, 'every-layer.ts'), await readFile(new URL('./every-layer.ts', import.meta.url)));
    const strict = {
      target: 'es2022',
      types: ['node'],
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      verbatimModuleSyntax: true,
    };
    const configs = {
      'tsconfig.nodenext.json': { ...strict, module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out' },
      'tsconfig.bundler.json': { ...strict, module: 'esnext', moduleResolution: 'bundler', noEmit: true },
    };
    await Promise.all(
      Object.entries(configs).map(async ([name, compilerOptions]) => {
        await writeFile(join(dir, name), JSON.stringify({ compilerOptions, files: ['every-layer.ts'] }));
        await tsc(['-p', name], dir);
      }),
    );
    assert.equal(await run(process.execPath, ['out/every-layer.js'], dir), 'every layer works\n');
  });

  it('follows the README install and first-controller steps verbatim: the program compiles and prints what the README shows', async () => {
    await writeFile(join(app, 'tsconfig.json'), readmeBlock('A `tsconfig.json` that works', 'json'));
    const saves = [...readme.matchAll(/Save (?:it|this)\s+as\s+`([^`]+)`/g)].map((m) => m[1]!);
    assert.deepEqual(saves, ['src/first-controller.ts', 'src/main.ts']);
    for (const file of saves) {
      await mkdir(join(app, dirname(file)), { recursive: true });
      await writeFile(join(app, file), readmeBlock(`as \`${file}\``, 'ts'));
    }
    let out = '';
    for (const [cmd, ...args] of commandLines(readmeBlock('Then compile and run it', 'sh'))) out = await run(cmd!, args, app);
    assert.equal(out, readmeBlock('Then compile and run it', 'text'));
  });

  it('compiles the first controller under the tsconfig that tsc --init writes, with node types as its comment says', async () => {
    const dir = join(app, 'init-defaults');
    await mkdir(dir);
    await tsc(['--init'], dir);
    const config = await readFile(join(dir, 'tsconfig.json'), 'utf8');
    assert.match(config, /^\s*"exactOptionalPropertyTypes": true,$/m, 'tsc --init turns exactOptionalPropertyTypes on');
    await writeFile(join(dir, 'tsconfig.json'), config.replace(/^(\s*)"types": \[\],$/m, '$1"types": ["node"],'));
    await writeFile(join(dir, 'first-controller.ts'), readmeBlock('as `src/first-controller.ts`', 'ts'));
    await tsc(['-p', '.', '--noEmit'], dir);
  });

  it('runs `converge apiserver`, whose written kubeconfig lets the installed client create and list objects', async () => {
    const kubeconfig = join(work, 'converge.kubeconfig');
    // Its own process group, so stopping it reaches the server behind npx too.
    const child = spawn('npx', ['converge', 'apiserver', '--kubeconfig', kubeconfig], {
      cwd: app,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => out.includes(`kubeconfig written to ${kubeconfig}\n`) && resolve());
        void exited.then((code) => reject(new Error(`converge apiserver exited (${code}) before writing its kubeconfig:\n${out}\n${err}`)));
      });
      const script = [
        "import { createClient, loadKubeConfig } from 'kube-converge/client';",
        "import { ConfigMapResource } from 'kube-converge/meta';",
        `const client = createClient({ config: loadKubeConfig({ path: ${JSON.stringify(kubeconfig)} }) });`,
        "await client.create(ConfigMapResource, { metadata: { namespace: 'default', name: 'hello' }, data: { a: 'b' } });",
        "console.log((await client.list(ConfigMapResource, { namespace: 'default' })).items.map((c) => c.metadata.name).join(','));",
        'client.close();',
      ].join('\n');
      assert.equal(await run(process.execPath, ['--input-type=module', '-e', script], app), 'hello\n');
      // Ctrl-C in a terminal: SIGINT to the whole foreground group. npx itself may die of it; the
      // server must stop and leave no process of the group behind.
      process.kill(-child.pid!, 'SIGINT');
      await exited;
      assert.ok(child.exitCode === 0 || child.signalCode === 'SIGINT', `npx exit: ${child.exitCode ?? child.signalCode}\n${err}`);
      await eventually(() => assert.throws(() => process.kill(-child.pid!, 0), { code: 'ESRCH' }), {
        message: 'every process of the group to exit',
      });
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e; // ESRCH: already gone, as it should be
      }
    }
  });

  it('answers `converge --version` with the package version and `converge help` with the usage', async () => {
    const [version, help] = await Promise.all([run('npx', ['converge', '--version'], app), run('npx', ['converge', 'help'], app)]);
    assert.equal(version, `${pkg.version}\n`);
    assert.match(help, /^Usage:\n {2}converge apiserver /);
  });
});
