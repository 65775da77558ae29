// Compiles the TypeScript code blocks of docs/writing-an-operator.md and README.md as a reader pastes
// them: each block is a file of its own, compiled with the compilerOptions the README recommends
// (read from the README itself, so the two cannot drift apart) against this package's sources. A
// block may say where it goes with `<!-- file: src/name.ts -->` on the line before it, so other blocks
// can import it by that path. No block can be marked as a piece of a file: a reader pastes what a
// page shows, so every TypeScript block is a whole file. Invariant: every TypeScript block on those
// pages compiles with no error.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Where the blocks are placed: inside the package, so `kube-converge/<layer>` resolves to this
// package's own exports (with the `source` condition: its TypeScript sources), as an installed copy
// would resolve to its build.
const blockRoot = join(root, '.code-blocks');

interface Block {
  page: string;
  /** The block's path in the reader's project. */
  path: string;
  /** Where it is compiled: below `blockRoot`, in a folder of its page, so pages cannot import each other's blocks. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
}

/** The TypeScript blocks of a Markdown page, placed where their `file:` lines say. */
function tsBlocks(markdown: string, page: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    let j = start - 1;
    while (j >= 0 && lines[j]!.trim() === '') j--;
    const marker = j >= 0 ? lines[j]!.trim() : '';
    const file = /^<!-- file: (\S+\.ts) -->$/.exec(marker)?.[1];
    const path = file ?? `line-${start + 1}.ts`;
    blocks.push({
      page,
      path,
      file: join(blockRoot, page.replace(/\W+/g, '-'), path),
      line: start + 1,
      code: body.join('\n') + '\n',
    });
  }
  return blocks;
}

/** The compilerOptions of the README's tsconfig.json block, as the compiler API takes them. */
function readmeCompilerOptions(): ts.CompilerOptions {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const json = /^```json\n(\{\n\s+"compilerOptions"[\s\S]*?)^```$/m.exec(readme)?.[1];
  assert.ok(json, 'README.md has no tsconfig.json block with compilerOptions');
  const raw = JSON.parse(json) as { compilerOptions: Record<string, unknown> };
  const { options, errors } = ts.convertCompilerOptionsFromJson(raw.compilerOptions, blockRoot);
  assert.deepEqual(
    errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')),
    [],
  );
  // Only type-checking here; `source` picks the package's TypeScript sources over dist/, which may be absent.
  const { rootDir: _rootDir, outDir: _outDir, ...checked } = options;
  return { ...checked, noEmit: true, customConditions: ['source'] };
}

/** The folders above `file` up to the block root, which exist only in memory. */
function ancestors(file: string): string[] {
  const out: string[] = [];
  for (let d = dirname(file); d.startsWith(blockRoot); d = dirname(d)) out.push(d);
  return out;
}

/**
 * Error messages of compiling `blocks` together, each prefixed with its page and line. Every page's
 * blocks go into one program, so the package's sources are type-checked once for all of them.
 */
function compile(blocks: Block[]): string[] {
  const files = new Map(blocks.map((b) => [b.file, b]));
  const options = readmeCompilerOptions();
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  const dirs = new Set([...files.keys()].flatMap((f) => ancestors(f)));
  host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
  host.directoryExists = (d) => dirs.has(d) || (directoryExists?.call(host, d) ?? false);
  host.readFile = (f) => files.get(f)?.code ?? readFile.call(host, f);
  host.getSourceFile = (f, version, onError, create) => {
    const b = files.get(f);
    return b ? ts.createSourceFile(f, b.code, version, true) : getSourceFile.call(host, f, version, onError, create);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const f of files.keys()) {
    const sf = program.getSourceFile(f);
    if (sf) diagnostics.push(...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf));
  }
  return diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const b = d.file ? files.get(d.file.fileName) : undefined;
    if (!b || !d.file || d.start === undefined) return `${d.file?.fileName ?? 'options'}: ${text}`;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${b.page}:${b.line + 1 + line} (${b.path}): ${text}`;
  });
}

const PAGES = ['docs/writing-an-operator.md', 'README.md'];
const blocksOf = new Map(PAGES.map((page) => [page, tsBlocks(readFileSync(join(root, page), 'utf8'), page)]));
let errors: string[] | undefined;

for (const page of PAGES) {
  describe(`${page}: TypeScript code blocks`, () => {
    const blocks = blocksOf.get(page)!;

    it('compile as shown under the README tsconfig, against this package', () => {
      assert.ok(blocks.length > 0, `${page} has no TypeScript block`);
      errors ??= compile([...blocksOf.values()].flat());
      // Errors outside any block (options, the package's own files) belong to every page.
      assert.deepEqual(
        errors.filter((e) => !PAGES.some((p) => e.startsWith(`${p}:`)) || e.startsWith(`${page}:`)),
        [],
      );
    });

    it('name distinct files', () => {
      const paths = blocks.map((b) => b.path);
      assert.deepEqual(
        paths.filter((p, i) => paths.indexOf(p) !== i),
        [],
      );
    });
  });
}
