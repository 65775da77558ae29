// Keeps the public promises in step with the code: the error catalogue with docs/errors.md, the
// package's subpath exports with the layers under src/ (one public face per layer), and the generated
// API reference in docs/api/ with what the faces export and document.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateApi } from '../../scripts/api-reference.mjs';

const read = (p: string): string => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

describe('error catalogue', () => {
  it('lists every ErrorCode in docs/errors.md and nothing else', () => {
    const union = read('src/meta/errors.ts').match(/export type ErrorCode =([^;]+);/);
    assert.ok(union, 'ErrorCode union not found in src/meta/errors.ts');
    const codes = [...union[1]!.matchAll(/'(CONVERGE_[A-Z_]+)'/g)].map((m) => m[1]).sort();
    const documented = [...read('docs/errors.md').matchAll(/^\| `(CONVERGE_[A-Z_]+)` \|/gm)].map((m) => m[1]).sort();
    assert.deepEqual(documented, codes);
  });
});

describe('package exports', () => {
  it('has one subpath export per layer folder with an index.ts, pointing at src for tests and dist for users', () => {
    const pkg = JSON.parse(read('package.json')) as { exports: Record<string, Record<string, string>> };
    const srcDir = new URL('../../src/', import.meta.url);
    const layers = readdirSync(srcDir)
      .filter((d) => statSync(new URL(d, srcDir)).isDirectory() && existsSync(new URL(`${d}/index.ts`, srcDir)) && d !== 'cli')
      .sort();
    assert.deepEqual(
      Object.keys(pkg.exports)
        .map((k) => k.slice(2))
        .sort(),
      layers,
    );
    for (const layer of layers) {
      const e = pkg.exports[`./${layer}`]!;
      assert.equal(e.source, `./src/${layer}/index.ts`);
      assert.equal(e.types, `./dist/${layer}/index.d.ts`);
      assert.equal(e.default, `./dist/${layer}/index.js`);
    }
  });

  it('uses no `export *` in any layer index, so the public surface stays explicit', () => {
    const srcDir = new URL('../../src/', import.meta.url);
    for (const d of readdirSync(srcDir)) {
      const index = new URL(`${d}/index.ts`, srcDir);
      if (existsSync(index)) assert.doesNotMatch(readFileSync(index, 'utf8'), /export \* from/, `src/${d}/index.ts`);
    }
  });
});

describe('API reference', () => {
  const rootUrl = new URL('../../', import.meta.url);
  // Reading every face with the compiler takes seconds; both checks share one reading.
  const api = generateApi(fileURLToPath(rootUrl));

  it('is exactly what npm run api generates from the faces, so every export is in it', () => {
    const committed = readdirSync(new URL('docs/api/', rootUrl))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/api/${f}`);
    assert.deepEqual(
      committed.sort(),
      [...api.files.keys()].sort(),
      'docs/api/ has other files than the generator writes: run npm run api',
    );
    for (const [path, text] of api.files) assert.equal(read(path), text, `${path} is out of date: run npm run api`);
    for (const e of api.entries)
      assert.ok(api.files.get(`docs/api/${e.layer}.md`)!.includes(`| \`${e.name}\` | ${e.kind} |`), `${e.layer}:${e.name}`);
  });

  it('has a TSDoc sentence for every export, or a mention in the docs or a use in an example', () => {
    const docs = readdirSync(new URL('docs/', rootUrl))
      .filter((f) => f.endsWith('.md'))
      .map((f) => read(`docs/${f}`))
      .join('\n');
    const examples = filesUnder(new URL('examples/', rootUrl))
      .filter((u) => u.pathname.endsWith('.ts'))
      .map((u) => readFileSync(u, 'utf8'))
      .join('\n');
    const bare = api.entries
      .filter((e) => !e.summary && !new RegExp(`\\b${e.name}\\b`).test(docs) && !new RegExp(`\\b${e.name}\\b`).test(examples))
      .map((e) => `${e.layer}:${e.name}`);
    assert.deepEqual(bare, [], 'write a TSDoc sentence for these exports');
  });
});

function filesUnder(dir: URL): URL[] {
  return readdirSync(dir).flatMap((name) => {
    const u = new URL(name, dir);
    return statSync(u).isDirectory() ? filesUnder(new URL(`${name}/`, dir)) : [u];
  });
}
