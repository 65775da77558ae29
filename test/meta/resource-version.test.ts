// compareResourceVersion against the cases of apimachinery's comparable resource versions: integer
// order of any length, and no order at all for what is not a positive integer without leading zeros.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareResourceVersion } from 'kube-converge/meta';

describe('compareResourceVersion', () => {
  it('orders versions as integers, longer being newer', () => {
    assert.equal(compareResourceVersion('9', '10'), -1);
    assert.equal(compareResourceVersion('10', '9'), 1);
    assert.equal(compareResourceVersion('123', '123'), 0);
    assert.equal(compareResourceVersion('18446744073709551616', '18446744073709551615'), 1, 'beyond 64 bits');
    assert.equal(compareResourceVersion('122', '123'), -1);
  });

  it('has no order for zero, leading zeros, signs, empty or non-numeric versions', () => {
    for (const bad of ['0', '01', '-1', '+1', '', '1a', ' 1', '1.0'])
      assert.equal(compareResourceVersion(bad, '5'), undefined, JSON.stringify(bad));
    assert.equal(compareResourceVersion('5', 'abc'), undefined);
  });
});
