// Imports the private cel/ face: a unit test of the CEL libraries, which no layer face exports.
// The CEL libraries kube-apiserver added after the first ones: sets, semver, `ip.isCanonical` and
// the JSON Patch key escape, each case named after the documentation example it checks (the
// Kubernetes CEL reference at https://kubernetes.io/docs/reference/using-api/cel/ and cel-go's
// extension docs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile, evaluate, PER_CALL_LIMIT } from '../../src/apiserver/cel/index.js';

function run(expression: string): unknown {
  const c = compile(expression, {});
  if (!c.ok) throw new Error(c.error);
  const r = evaluate(c.program, {}, PER_CALL_LIMIT);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

function failure(expression: string): string {
  const c = compile(expression, {});
  if (!c.ok) return c.error;
  const r = evaluate(c.program, {}, PER_CALL_LIMIT);
  assert.equal(r.ok, false, `${expression} should fail`);
  return r.ok ? '' : r.error;
}

const cases = (list: [string, unknown][]) => {
  for (const [expression, want] of list) it(expression, () => assert.deepEqual(run(expression), want));
};

describe('sets library', () => {
  cases([
    ['sets.contains([], [])', true],
    ['sets.contains([1], [])', true],
    ['sets.contains([1, 2, 3, 4], [2, 3])', true],
    ['sets.contains([1, 2, 3], [3, 2, 1])', true],
    ['sets.contains([1, 2], [2, 2])', true],
    ['sets.contains([1, 2], [1, 3])', false],
    ['sets.equivalent([], [])', true],
    ['sets.equivalent([1], [1, 1])', true],
    ['sets.equivalent([1, 2, 3], [3, 2.0, 1])', true],
    ['sets.equivalent([1, 2], [2, 2, 2])', false],
    ['sets.intersects([1], [])', false],
    ['sets.intersects([1], [1, 2])', true],
    ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', true],
  ]);
});

describe('semver library', () => {
  cases([
    ["isSemver('1.0.0')", true],
    ["isSemver('hello')", false],
    ["isSemver('v1.0')", false],
    ["isSemver('v1.0', true)", true],
    ["semver('1.0', true) == semver('1.0.0')", true],
    ["semver('01.01.01', true) == semver('1.1.1')", true],
    ["semver('v1.0.0', true) == semver('1.0.0')", true],
    ["semver('0.1.0-alpha.1').isLessThan(semver('0.1.0'))", true],
    ['semver("1.2.3").major()', 1n],
    ['semver("1.2.3").minor()', 2n],
    ['semver("1.2.3").patch()', 3n],
    ['semver("1.2.3").compareTo(semver("1.2.3"))', 0n],
    ['semver("1.2.3").compareTo(semver("2.0.0"))', -1n],
    ['semver("1.2.3").compareTo(semver("0.1.2"))', 1n],
    ["semver('1.0.0').isGreaterThan(semver('0.1.0'))", true],
    ["semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))", true],
    ["semver('1.0.0+build.1') == semver('1.0.0+build.2')", true],
  ]);

  it("semver('200K') is an error, as a cluster answers", () => {
    assert.equal(failure("semver('200K')"), 'No Major.Minor.Patch elements found');
    assert.match(failure("semver('Three')"), /No Major\.Minor\.Patch elements found/);
    assert.equal(failure("semver('1.0-rc', true)"), 'short version cannot contain PreRelease/Build meta data');
  });
});

describe('IP library: ip.isCanonical', () => {
  cases([
    ["ip.isCanonical('127.0.0.1')", true],
    ["ip.isCanonical('::1')", true],
    ["ip.isCanonical('2001:db8::abcd')", true],
    ["ip.isCanonical('2001:DB8::ABCD')", false],
    ["ip.isCanonical('2001:db8:0:0:0:0:0:abcd')", false],
  ]);

  it("ip.isCanonical('invalid') is an error, not false", () => {
    assert.match(failure("ip.isCanonical('invalid')"), /IP Address parse error/);
  });
});

describe('JSON Patch library', () => {
  for (const [expression, want] of [
    ['jsonpatch.escapeKey("k8s.io/my~label")', 'k8s.io~1my~0label'],
    ['"/metadata/labels/" + jsonpatch.escapeKey("example.com/environment")', '/metadata/labels/example.com~1environment'],
  ]) {
    it(expression!, () => {
      const c = compile(expression!, {}, undefined, { patchTypes: true });
      assert.ok(c.ok, c.ok ? '' : c.error);
      const r = evaluate(c.program, {}, PER_CALL_LIMIT);
      assert.deepEqual(r.ok ? r.value : r.error, want);
    });
  }

  it("is only in the environment of a mutating policy's mutations, as kube-apiserver's patch types are", () => {
    assert.match(failure('jsonpatch.escapeKey("a/b")'), /undeclared reference to 'jsonpatch'|found no matching overload/);
  });
});

describe('lists extension (version 3)', () => {
  cases([
    ['lists.range(5)', [0n, 1n, 2n, 3n, 4n]],
    ['lists.range(0)', []],
    ['[1, [2, [3, 4]]].flatten()', [1n, 2n, [3n, 4n]]],
    ['[1, [2, [3, [4]]]].flatten(2)', [1n, 2n, 3n, [4n]]],
    ['[1, 2, [], [], [3, 4]].flatten()', [1n, 2n, 3n, 4n]],
    ["['b', 'b', 'c', 'a', 'c'].distinct()", ['b', 'c', 'a']],
    ['[[1, 2], [-1], [3]].sortBy(l, l[0])', [[-1n], [1n, 2n], [3n]]],
    ["[{'n': 'foo', 's': 0}, {'n': 'bar', 's': -10}, {'n': 'q', 's': 0}].sortBy(p, p.s).map(p, p.n)", ['bar', 'foo', 'q']],
  ]);

  it("[1, 'a'].sortBy(x, x) is an error: the keys are not of one type", () => {
    assert.match(failure("[1, 'a'].sortBy(x, x)"), /list elements must have the same type/);
  });

  it('[1, [2, [3, [4]]]].flatten(-1) is an error', () => {
    assert.match(failure('[1, [2, [3, [4]]]].flatten(-1)'), /level must be non-negative/);
  });
});
