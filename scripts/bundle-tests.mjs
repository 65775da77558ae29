// Compiles test files, with everything they import from this repository, to JavaScript once, with
// esbuild: one module per test file and shared chunks for the code several of them import. Under
// tsx every test file's process compiled the library again through loader hooks, which cost more
// CPU than most tests themselves (about 2 s for a file that imports the API server); the compiled
// files load as plain JavaScript. Invariant: a compiled test sees what it saw under tsx —
// `import.meta.url` is the URL of the source file it is written in (fixtures and the corpus are read
// relative to it), packages in node_modules stay external and load from there, and
// `kube-converge/<layer>` is the package's own `source` export — so a test passes or fails alike.
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, transform } from 'esbuild';

const SELF = 'kube-converge';

/**
 * Compiles `files` (paths relative to `root`) into `outDir`, emptied first, and returns the compiled
 * path of each, in the same order. Source maps point back at the TypeScript.
 */
export async function bundleTests(files, { root, outDir }) {
  rmSync(outDir, { recursive: true, force: true });
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  await build({
    absWorkingDir: root,
    entryPoints: files,
    outdir: outDir,
    outbase: root,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // Two modules may declare classes of the same name; without this, the bundle renames one and
    // `constructor.name` (which errors and messages show) changes.
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [selfExports(root, pkg), sourceUrls(root)],
  });
  return files.map((f) => join(outDir, f.replace(/\.[cm]?ts$/, '.mjs')));
}

/** `kube-converge/<layer>` resolves to the `source` file of the package's exports, as `--conditions=source` does. */
function selfExports(root, pkg) {
  return {
    name: 'self-exports',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${SELF}(/|$)`) }, (args) => {
        const sub = '.' + args.path.slice(SELF.length);
        const target = pkg.exports?.[sub]?.source;
        if (typeof target !== 'string') return { errors: [{ text: `${args.path} is not an export of ${SELF} with a source condition` }] };
        return { path: join(root, target) };
      });
    },
  };
}

/**
 * Replaces `import.meta.url` in each module of the repository (TypeScript, and the scripts' JavaScript
 * that tests import) with the URL of its source file. esbuild's `define` replaces the expression only,
 * never text in strings or comments.
 */
function sourceUrls(root) {
  return {
    name: 'source-urls',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
        if (!args.path.startsWith(root) || args.path.includes('/node_modules/')) return undefined;
        const source = await readFile(args.path, 'utf8');
        const { code } = await transform(source, {
          loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js',
          sourcefile: args.path,
          sourcemap: 'inline',
          target: 'node20',
          // What tsx reads from tsconfig.json: imports are kept as written, class fields are defined.
          tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
          define: { 'import.meta.url': JSON.stringify(pathToFileURL(args.path).href) },
        });
        return { contents: code, loader: 'js' };
      });
    },
  };
}
