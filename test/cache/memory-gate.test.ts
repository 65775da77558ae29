// The informer's memory regression gate: retained bytes per cached object and bytes allocated per
// watch event, measured in a child process with `--expose-gc` (memory-gate-probe.ts) and checked
// against the committed baselines (memory-baselines.json, which says how to update them). Only
// deterministic figures, no timing, so a busy machine cannot fail or pass it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const LIMIT = 1.1;
const baselines = JSON.parse(readFileSync(new URL('./memory-baselines.json', import.meta.url), 'utf8')) as {
  figures: Record<string, number>;
};

describe('memory gate', () => {
  it('keeps retained bytes per cached object and bytes allocated per watch event within 110 % of the baselines', async () => {
    const probe = fileURLToPath(new URL('./memory-gate-probe.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--conditions=source', '--import', 'tsx', probe], {
      maxBuffer: 1 << 20,
    });
    const measured = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number>;
    assert.deepEqual(
      Object.keys(measured).sort(),
      Object.keys(baselines.figures).sort(),
      'the probe measures exactly the figures with baselines',
    );
    const broken = Object.entries(measured).filter(([, bytes]) => !(bytes > 0));
    assert.deepEqual(broken, [], 'every figure is a positive number of bytes (anything else is a broken measurement)');
    const over = Object.entries(measured)
      .filter(([name, bytes]) => bytes > baselines.figures[name]! * LIMIT)
      .map(
        ([name, bytes]) =>
          `${name}: ${bytes} B, baseline ${baselines.figures[name]} B (${((100 * bytes) / baselines.figures[name]!).toFixed(0)} %)`,
      );
    assert.deepEqual(over, [], 'figures over 110 % of their baseline');
  });
});
