/**
 * Where `converge create api` wires a new kind into a project: marker comments in the two index files
 * `converge init` writes (the definitions `converge generate` reads, the controllers main starts), and
 * the recordings `converge rbac` reads in package.json's `test` and `rbac` scripts. A line goes in
 * just above its marker, indented like it, and a recording after the last one, so the user's own
 * edits around them survive. Invariant: a file without its marker is refused, never guessed at.
 */
import type { KindNames } from './names.js';
import { recordingOf } from './rbac-files.js';
import { local } from './local-import.js';

export const API_INDEX = 'src/api/index.ts';
export const CONTROLLERS_INDEX = 'src/controllers/index.ts';
export const WEBHOOKS_INDEX = 'src/webhooks/index.ts';
export const MAIN = 'src/main.ts';

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

/** src/webhooks/index.ts, which `converge create webhook` writes with the project's first webhook. */
export function webhooksIndexFile(first: KindNames): string {
  return `// Every webhook of the operator; main.ts registers them all on its manager, which serves them over HTTPS.
import type { Manager } from 'kube-converge/manager';
import { setup${first.kind}Webhook } from ${local(`./${first.file}.js`)};
${IMPORTS_MARKER} (converge create webhook adds each new kind's import above this line)

/** Registers every webhook of the operator on \`mgr\`. Call before \`mgr.start()\`. */
export function setupWebhooks(mgr: Manager): void {
  setup${first.kind}Webhook(mgr);
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

export function wireWebhook(text: string, k: KindNames): string {
  const imported = insertAbove(text, IMPORTS_MARKER, `import { setup${k.kind}Webhook } from ${local(`./${k.file}.js`)};`, WEBHOOKS_INDEX);
  return insertAbove(imported, SETUP_MARKER, `setup${k.kind}Webhook(mgr);`, WEBHOOKS_INDEX);
}

/**
 * main.ts calling `setupWebhooks` after `setupControllers` (unless ENABLE_WEBHOOKS=false), its import
 * after theirs: the lines `converge init` wrote are the anchors, and a main.ts without them is refused.
 */
export function wireMain(text: string): string {
  const below = (t: string, anchor: string, line: string): string => {
    const lines = t.split('\n');
    const at = lines.findIndex((l) => l.trim() === anchor);
    if (at === -1)
      throw new WiringError(`${MAIN} has no "${anchor}" line, so the webhooks cannot be wired in; add "${line.trim()}" where they belong`);
    lines.splice(at + 1, 0, lines[at]!.slice(0, lines[at]!.length - lines[at]!.trimStart().length) + line);
    return lines.join('\n');
  };
  if (text.includes('setupWebhooks(mgr)')) return text;
  const imported = below(
    text,
    `import { setupControllers } from ${local('./controllers/index.js')};`,
    `import { setupWebhooks } from ${local('./webhooks/index.js')};`,
  );
  // As kubebuilder's main: the webhook server needs a serving certificate, which cert-manager issues in
  // a cluster; ENABLE_WEBHOOKS=false runs the operator without one (npm start, npm run e2e).
  return below(imported, 'setupControllers(mgr);', "if (process.env['ENABLE_WEBHOOKS'] !== 'false') setupWebhooks(mgr);");
}

const RECORDING = /--recording \S+/g;

/**
 * package.json with `k`'s recording added to the `converge rbac` commands of its `test` and `rbac`
 * scripts, and the recordings those now read.
 */
export function wireRecording(text: string, k: KindNames): { text: string; recordings: string[] } {
  const pkg = JSON.parse(text) as { scripts?: Record<string, string> };
  let recordings: string[] = [];
  for (const script of ['test', 'rbac']) {
    const command = pkg.scripts?.[script] ?? '';
    const found = [...command.matchAll(RECORDING)];
    const last = found.at(-1);
    if (last === undefined) {
      throw new WiringError(
        `package.json's "${script}" script runs no converge rbac --recording, so the new kind's recording cannot be added to it`,
      );
    }
    const at = last.index + last[0].length;
    pkg.scripts![script] = `${command.slice(0, at)} --recording ${recordingOf(k)}${command.slice(at)}`;
    recordings = [...found.map((m) => m[0].slice('--recording '.length)), recordingOf(k)];
  }
  return { text: `${JSON.stringify(pkg, null, 2)}\n`, recordings };
}
