// Keeps the public promises in step with the code: the error catalogue with docs/errors.md, and the
// package's subpath exports with the layers under src/ (one
// public face per layer).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';

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
    assert.deepEqual(Object.keys(pkg.exports).map((k) => k.slice(2)).sort(), layers);
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
