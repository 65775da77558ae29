// Imports the CLI's private usage hints to test its suggestions directly; the CLI has no library face.
// What `converge` prints after a typo: a "did you mean" for a near command or flag, the usage lines of
// the one command concerned (not the whole help), exit status 2; and no guess for a word unlike any.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closest, editDistance, flagsOf, usageLinesOf } from '../../src/cli/usage-hints.js';
import { runConverge } from '../e2e/apiserver-process.js';

describe('usage hints', () => {
  it('measures edits and guesses only close words', () => {
    assert.equal(editDistance('apisrever', 'apiserver'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('', 'why'), 3);
    assert.equal(closest('apisrever', ['apiserver', 'why', 'init']), 'apiserver');
    assert.equal(closest('--kube', ['--kubeconfig', '--crds']), '--kubeconfig');
    assert.equal(closest('deploy', ['apiserver', 'why', 'init', 'create']), undefined);
  });

  it("reads a command's usage lines, with their wrapped continuation, and the flags they show", () => {
    const usage = 'Usage:\n  converge a [--one X]\n      [--two]\n  converge b [--three]\n';
    assert.deepEqual(usageLinesOf(usage, 'a'), ['  converge a [--one X]', '      [--two]']);
    assert.deepEqual(flagsOf(usage, 'a'), ['--one', '--two', '--help']);
  });

  it('answers a mistyped command with "did you mean", a short text and exit status 2', async () => {
    const p = runConverge(['apisrever']);
    assert.equal(await p.exited, 2);
    assert.match(p.err(), /^converge: unknown command: apisrever\nDid you mean "apiserver"\?\n/);
    assert.match(p.err(), /Run "converge help" for every command and option\.\n$/);
    assert.ok(p.err().split('\n').length < 8, p.err());
  });

  it("answers a mistyped flag with the command's own flag and usage lines", async () => {
    const p = runConverge(['why', 'webapp/shop', '--ulr', 'http://127.0.0.1:1']);
    assert.equal(await p.exited, 2);
    assert.match(p.err(), /^converge: unknown option --ulr\nDid you mean "--url"\?\n\nUsage:\n {2}converge why <kind>\/<name> /);
    assert.doesNotMatch(p.err(), /converge apiserver/);
  });
});
