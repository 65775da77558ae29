// Keeps docs/versions.md in step with the server's table of version-dependent facts: the tables
// between its markers are generated from src/apiserver/versions, and this fails while they are stale.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DOC, withTable } from '../../scripts/version-table.mjs';

describe('docs/versions.md', () => {
  it('holds the table generated from the server (run `node --import tsx scripts/version-table.mts`)', () => {
    const doc = readFileSync(DOC, 'utf8');
    assert.equal(doc, withTable(doc));
  });
});
