/**
 * What `converge` says after an argument error: the closest known command or flag ("did you mean …")
 * and the usage lines of the one command concerned, instead of the whole help text. The flags a
 * command knows are read from its usage lines, so the hint can never offer a flag the usage does not
 * show. Invariant: a suggestion is offered only when it is close (an edit distance of at most a third
 * of the word, and at least one), so a word unlike every candidate gets no guess.
 */

/**
 * Edit distance with adjacent transpositions (optimal string alignment): an insertion, deletion,
 * substitution or swap of two neighbours each cost one, so `--ulr` is one edit from `--url`.
 */
export function editDistance(a: string, b: string): number {
  let before = Array.from({ length: b.length + 1 }, () => 0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

/** The candidate closest to `word`, when one is close enough to be what was meant. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    // A prefix (`--kube` for `--kubeconfig`) is what was meant more often than a near miss.
    const distance = candidate.startsWith(word) && word.length >= 3 ? 1 : editDistance(word, candidate);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** The lines of `usage` that show `command` (`  converge <command> …`), with their continuation lines. */
export function usageLinesOf(usage: string, command: string): string[] {
  const lines = usage.split('\n');
  const shown: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith(`  converge ${command} `) && lines[i] !== `  converge ${command}`) continue;
    shown.push(lines[i]!);
    // A long usage line wraps onto lines indented deeper than `  converge`.
    while (i + 1 < lines.length && /^ {4,}\S/.test(lines[i + 1]!)) shown.push(lines[++i]!);
  }
  return shown;
}

/** The long flags (`--url`) the usage lines of `command` show, and `--help`. */
export function flagsOf(usage: string, command: string): string[] {
  const found = usageLinesOf(usage, command).flatMap((l) => l.match(/--[a-z][a-z-]*/g) ?? []);
  return [...new Set([...found, '--help'])];
}

/** The command words the usage shows (`apiserver`, `create`, …). */
export function commandsOf(usage: string): string[] {
  return [...new Set([...usage.matchAll(/^ {2}converge ([a-z][a-z-]*)/gm)].map((m) => m[1]!))];
}

/**
 * The text after an argument error of `command` (undefined: no command was recognised): the error,
 * a "did you mean" when the unknown word is close to a known one, the command's usage lines, and where
 * the rest is.
 */
export function usageErrorText(message: string, usage: string, command: string | undefined, unknown?: string): string {
  const known = command === undefined ? commandsOf(usage) : flagsOf(usage, command);
  const guess = unknown === undefined ? undefined : closest(unknown, known);
  const lines = command === undefined ? [] : usageLinesOf(usage, command);
  return [
    `converge: ${message}`,
    ...(guess !== undefined ? [`Did you mean ${JSON.stringify(guess)}?`] : []),
    '',
    ...(lines.length > 0 ? ['Usage:', ...lines, ''] : []),
    'Run "converge help" for every command and option.',
    '',
  ].join('\n');
}
