// TerminalError: its message, and recognition anywhere in a cause chain (a cyclic one included) and
// nowhere else.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isTerminalError, TerminalError } from 'kube-converge/controller';
import { ConvergeError } from 'kube-converge/meta';

describe('TerminalError', () => {
  it('wraps its cause and reads "terminal error: <cause>"', () => {
    const cause = new Error('spec.replicas must be positive');
    const err = new TerminalError(cause);
    assert.equal(err.message, 'terminal error: spec.replicas must be positive');
    assert.equal(err.cause, cause);
    assert.equal(err.code, 'CONVERGE_TERMINAL');
    assert.ok(ConvergeError.is(err));
    assert.equal(new TerminalError('plain text').message, 'terminal error: plain text');
    assert.equal(new TerminalError().message, 'nil terminal error');
  });

  it('is recognised anywhere in a cause chain, and only there', () => {
    const wrapped = new Error('reconcile failed', { cause: new TerminalError(new Error('bad')) });
    assert.equal(isTerminalError(wrapped), true);
    assert.equal(isTerminalError(new Error('transient')), false);
    assert.equal(isTerminalError('terminal error: a string is not one'), false);
    assert.equal(isTerminalError(undefined), false);
  });

  it('does not loop on a cyclic cause chain', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    assert.equal(isTerminalError(a), false);
  });
});
