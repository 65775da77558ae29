// docs/writing-an-operator.md shows this example's files as they are: each TypeScript block is the
// whole file its `<!-- file: … -->` line names (so a reader can paste it into a project `converge init`
// wrote, and test/project/guide-code-blocks.test.ts compiles them as such), the CRD is shown whole,
// and every link into the repository points at a file that exists.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';

const example = new URL('../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, example), 'utf8');
const guide = read('../../docs/writing-an-operator.md');

describe('docs/writing-an-operator.md', () => {
  it('shows each TypeScript block as the whole example file it names', () => {
    const blocks = [...guide.matchAll(/<!-- file: (\S+) -->\n\n```ts\n([\s\S]*?)^```$/gm)];
    assert.ok(blocks.length >= 10, `found only ${blocks.length} TypeScript blocks with a file line`);
    assert.equal(blocks.length, [...guide.matchAll(/^```ts$/gm)].length, 'every TypeScript block names its file');
    for (const [, path, code] of blocks) {
      assert.ok(existsSync(new URL(path!, example)), `${path} is not a file of examples/writing-an-operator`);
      assert.equal(code, read(path!), `the block of ${path} differs from the file`);
    }
  });

  it('shows crd.yaml whole', () => {
    assert.ok(guide.includes('```yaml\n' + read('crd.yaml') + '```\n'), 'crd.yaml must be shown whole');
  });

  it('links only to files that exist', () => {
    const root = new URL('../../', example);
    for (const [, path] of guide.matchAll(/\]\(\.\.\/((?:examples|docs|src)\/[^)#]*)/g)) {
      assert.ok(existsSync(new URL(path!, root)), `${path} does not exist`);
    }
  });
});
