/**
 * Where `converge create api` wires a new kind into a project: marker comments in the two index files
 * `converge init` writes (the definitions `converge generate` reads, the controllers main starts). A
 * line goes in just above its marker, indented like it, so the user's own edits around it survive.
 * Invariant: a file without its marker is refused, never guessed at.
 */
import type { KindNames } from './names.js';
import { local } from './local-import.js';

export const API_INDEX = 'src/api/index.ts';
export const CONTROLLERS_INDEX = 'src/controllers/index.ts';

const API_MARKER = '// converge:scaffold:api';
const IMPORTS_MARKER = '// converge:scaffold:imports';
const SETUP_MARKER = '// converge:scaffold:setup';

/** A project file that `converge create api` cannot wire into. */
export class WiringError extends Error {
  override readonly name = 'WiringError';
}

export function apiIndexFile(first: KindNames): string {
  return `// Every definition of the project: \`converge generate\` writes the CRD of each one exported here.
export { ${first.kind} } from ${local(`./${first.file}.js`)};
${API_MARKER} (converge create api adds each new kind above this line)
`;
}

export function controllersIndexFile(first: KindNames): string {
  return `// Every controller of the operator; main.ts registers them all on its manager.
import type { Manager } from 'kube-converge/manager';
import { setup${first.kind}Controller } from ${local(`./${first.file}.js`)};
${IMPORTS_MARKER} (converge create api adds each new controller's import above this line)

/** Registers every controller of the operator on \`mgr\`. Call before \`mgr.start()\`. */
export function setupControllers(mgr: Manager): void {
  setup${first.kind}Controller(mgr);
  ${SETUP_MARKER}
}
`;
}

/** `text` with `line` inserted above the line holding `marker`, at its indentation. */
function insertAbove(text: string, marker: string, line: string, file: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trimStart().startsWith(marker));
  if (at === -1)
    throw new WiringError(`${file} has no "${marker}" line, so the new kind cannot be wired in; put it back where new lines belong`);
  const indent = lines[at]!.slice(0, lines[at]!.length - lines[at]!.trimStart().length);
  lines.splice(at, 0, indent + line);
  return lines.join('\n');
}

export function wireApi(text: string, k: KindNames): string {
  return insertAbove(text, API_MARKER, `export { ${k.kind} } from ${local(`./${k.file}.js`)};`, API_INDEX);
}

export function wireController(text: string, k: KindNames): string {
  const imported = insertAbove(
    text,
    IMPORTS_MARKER,
    `import { setup${k.kind}Controller } from ${local(`./${k.file}.js`)};`,
    CONTROLLERS_INDEX,
  );
  return insertAbove(imported, SETUP_MARKER, `setup${k.kind}Controller(mgr);`, CONTROLLERS_INDEX);
}
