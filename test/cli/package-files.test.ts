// What `npm publish` would ship, without building or touching the network: `npm pack --dry-run --json
// --ignore-scripts` lists the files `files` selects, and package.json must be one npm publishes as
// written (no "auto-corrected" warnings) whose every entry point the build puts inside that list.
// dist/ is not built here (the prepack script builds it); each dist path is checked against the
// source file tsconfig.build.json compiles it from, which must be in the list.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { promisify } from 'node:util';
import { cleanEnv, repo } from '../e2e/package/pack.js';

interface Pkg {
  files: string[];
  bin: Record<string, string>;
  exports: Record<string, Record<string, string>>;
  scripts: Record<string, string>;
}

const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as Pkg;
const build = JSON.parse(await readFile(new URL('../../tsconfig.build.json', import.meta.url), 'utf8')) as {
  compilerOptions: { rootDir: string; outDir: string };
};

const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
  cwd: repo,
  env: cleanEnv,
  maxBuffer: 64 << 20,
});
const packed = new Set((JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path));

/** The source file the build compiles `dist/x/y.js` (or `.d.ts`) from. */
function sourceOf(distPath: string): string {
  const { rootDir, outDir } = build.compilerOptions;
  const rel = posix.relative(outDir, posix.normalize(distPath));
  assert.ok(!rel.startsWith('..'), `${distPath} is outside ${outDir}/, where the build writes`);
  return posix.join(rootDir, rel.replace(/(\.d\.ts|\.js)$/, '.ts'));
}

describe('the published file list', () => {
  it('holds package.json, the README and every source file an entry point is built from, and no tests', () => {
    for (const f of ['package.json', 'README.md']) assert.ok(packed.has(f), f);
    for (const [subpath, conditions] of Object.entries(pkg.exports)) {
      assert.ok(packed.has(posix.normalize(conditions['source']!)), `${subpath}: its source ${conditions['source']} is packed`);
      for (const condition of ['types', 'default']) {
        const target = conditions[condition]!;
        assert.ok(packed.has(sourceOf(target)), `${subpath} ${condition}: ${target} is built from a packed source`);
        assert.ok(
          pkg.files.some((f) => posix.normalize(target).startsWith(`${f}/`)),
          `${target} is under "files"`,
        );
      }
    }
    const stray = [...packed].filter((f) => /(^|\/)(test|tests|fixtures|examples|bench|node_modules)\/|\.test\.ts$|\.kubeconfig$/.test(f));
    assert.deepEqual(stray, []);
  });

  it('has a bin npm keeps as written and the build makes: a normalized path (npm rewrites "./x", with a warning), built from a packed source', () => {
    for (const [name, path] of Object.entries(pkg.bin)) {
      assert.equal(path, posix.normalize(path).replace(/^\.\//, ''), `bin ${name}`);
      assert.ok(packed.has(sourceOf(path)), `bin ${name}: ${path} is built from a packed source`);
    }
  });

  it('builds dist/ before every pack and publish', () => {
    assert.equal(pkg.scripts['prepack'], 'npm run build');
  });
});
