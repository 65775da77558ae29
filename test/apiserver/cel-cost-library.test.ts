// Imports the API server's private CEL internals: these tables hold the cost estimator itself, which no public face exposes.
// The cost estimate held to the Kubernetes CEL libraries' own table (k8s.io/apiserver
// pkg/cel/library/cost_test.go): expressions over literals, with their estimated least and most
// cost. Left out: the two `join` cases over a literal list of strings, which size each string by its
// type through that test's own size estimator rather than as kube-apiserver sizes a CRD's values;
// and what the engine does not compile yet: two-variable comprehensions (`all(k, v, …)`,
// `transformList`, …) and comparing two named formats.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../src/apiserver/cel/index.js';

// [expression, estimated least cost, estimated most cost]
const CASES: [string, number, number][] = [
  ["'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3, 3],
  ["'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", 7, 9],
  ["'ABCDEFGHIJ abcdefghij'.upperAscii()", 3, 3],
  ["'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", 7, 9],
  ["strings.quote('ABCDEFGHIJ abcdefghij')", 3, 3],
  ["strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')", 7, 11],
  ["'abc 123 def 123'.replace('123', '456')", 3, 3],
  ["'abc 123 def 123'.replace('', 'x')", 3, 3],
  ["'abc 123 def 123'.replace('123', '')", 3, 3],
  ["'abc 123 def 123'.replace('123', '456', 1)", 3, 3],
  ["'abc 123 def 123'.split(' ')", 3, 3],
  ["'abc 123 def 123'.split(' ', 1)", 3, 3],
  ["'abc 123 def 123'.substring(5)", 2, 2],
  ["'abc 123 def 123'.substring(5, 8)", 2, 2],
  ["'  abc 123 def 123  '.trim()", 2, 2],
  ["'abc 123 def 123'.find('123')", 2, 2],
  ["'abc 123 def 123'.findAll('123')", 2, 2],
  ["'abc 123 def 123'.findAll('123', 1)", 2, 2],
  ["jsonpatch.escapeKey('abc/def~ abc/def~')", 2, 2],
  ["authorizer.path('/healthz')", 2, 2],
  ["authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')", 6, 6],
  [
    "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=example-node-name.fully.qualified.domain.name.example.com')",
    1821,
    1821,
  ],
  [
    "authorizer.group('').resource('pods').labelSelector('spec.nodeName=example-node-name.fully.qualified.domain.name.example.com')",
    1821,
    1821,
  ],
  ["authorizer.path('/healthz').check('get').allowed()", 350003, 350003],
  [
    "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
    350007,
    350007,
  ],
  [
    "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').allowed()",
    350007,
    350007,
  ],
  [
    "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').errored()",
    350007,
    350007,
  ],
  [
    "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend').check('create').error()",
    350007,
    350007,
  ],
  ['quantity("12Mi")', 1, 1],
  ['isQuantity("20")', 1, 1],
  ['isQuantity("20M")', 1, 1],
  ['quantity("200M") == quantity("200M")', 3, 3],
  ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', 3, 6],
  ['quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")', 3, 9],
  ['quantity("50M").isLessThan(quantity("50Mi"))', 3, 3],
  ['quantity("50Mi").isGreaterThan(quantity("50M"))', 3, 3],
  ['quantity("200M").compareTo(quantity("0.2G")) > 0', 4, 4],
  ['quantity("50k").add(quantity("20")) == quantity("50.02k")', 5, 5],
  ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', 5, 5],
  ['quantity("50k").sub(20) == quantity("49980")', 4, 4],
  ['quantity("50k").add(20).sub(quantity("100k")).asInteger() > 0', 6, 6],
  ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0', 7, 7],
  ['quantity("50k").asInteger() > 0', 3, 3],
  ['quantity("50").isInteger()', 2, 2],
  ['quantity("50.703k").asApproximateFloat() > 0.0', 3, 3],
  ['format.named("dns1123subdomain")', 1, 1],
  ['format.named("dns1123Label").value().validate("my-name")', 34, 34],
  ['format.named("dns1123Label").value().validate("my-name")', 34, 34],
  ['sets.contains([], [])', 21, 21],
  ['sets.contains([1], [])', 21, 21],
  ['sets.contains([1], [1])', 22, 22],
  ['sets.contains([1], [1, 1])', 23, 23],
  ['sets.contains([1, 1], [1])', 23, 23],
  ['sets.contains([2, 1], [1])', 23, 23],
  ['sets.contains([1, 2, 3, 4], [2, 3])', 29, 29],
  ['sets.contains([1], [1.0, 1])', 23, 23],
  ['sets.contains([1, 2], [2u, 2.0])', 25, 25],
  ['sets.contains([1, 2u], [2, 2.0])', 25, 25],
  ['sets.contains([1, 2.0, 3u], [1.0, 2u, 3])', 30, 30],
  ['!sets.contains([1], [2])', 23, 23],
  ['!sets.contains([1], [1, 2])', 24, 24],
  ['!sets.contains([1], ["1", 1])', 24, 24],
  ['!sets.contains([1], [1.1, 1u])', 24, 24],
  ['sets.equivalent([], [])', 21, 21],
  ['sets.equivalent([1], [1])', 23, 23],
  ['sets.equivalent([1], [1, 1])', 25, 25],
  ['sets.equivalent([1, 1], [1])', 25, 25],
  ['sets.equivalent([1], [1u, 1.0])', 25, 25],
  ['sets.equivalent([1], [1u, 1.0])', 25, 25],
  ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])', 39, 39],
  ['sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])', 69, 69],
  ['!sets.equivalent([2, 1], [1])', 26, 26],
  ['!sets.equivalent([1], [1, 2])', 26, 26],
  ['!sets.equivalent([1, 2], [2u, 2, 2.0])', 34, 34],
  ['!sets.equivalent([1, 2], [1u, 2, 2.3])', 34, 34],
  ['sets.intersects([1], [1])', 22, 22],
  ['sets.intersects([1], [1, 1])', 23, 23],
  ['sets.intersects([1, 1], [1])', 23, 23],
  ['sets.intersects([2, 1], [1])', 23, 23],
  ['sets.intersects([1], [1, 2])', 23, 23],
  ['sets.intersects([1], [1.0, 2])', 23, 23],
  ['sets.intersects([1, 2], [2u, 2, 2.0])', 27, 27],
  ['sets.intersects([1, 2], [1u, 2, 2.3])', 27, 27],
  ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', 65, 65],
  ['!sets.intersects([], [])', 22, 22],
  ['!sets.intersects([1], [])', 22, 22],
  ['!sets.intersects([1], [2])', 23, 23],
  ['!sets.intersects([1], ["1", 2])', 24, 24],
  ['!sets.intersects([1], [1.1, 2u])', 24, 24],
  ['semver("1.0.0")', 1, 1],
  ['semver("1234.56789012345.67890123456789")', 4, 4],
  ['isSemver("1.0.0")', 1, 1],
  ['isSemver("1234.56789012345.67890123456789")', 4, 4],
  ['semver("1.2.3").major()', 2, 2],
  ['semver("1.2.3").minor()', 2, 2],
  ['semver("1.2.3").patch()', 2, 2],
  ['semver("1.0.0").isLessThan(semver("1.1.0"))', 3, 3],
  ['semver("1.1.0").isGreaterThan(semver("1.0.0"))', 3, 3],
  ['semver("1.0.0").compareTo(semver("1.2.3"))', 3, 3],
];

describe('CEL library costs, as the Kubernetes libraries estimate them', () => {
  for (const [expression, min, max] of CASES) {
    it(expression, () => {
      // As in that test, every library is declared, the mutations' JSON Patch one included.
      const c = compile(expression, { authorizer: { kind: 'authorizer' } }, undefined, { patchTypes: true });
      assert.ok(c.ok, c.ok ? '' : c.error);
      assert.deepEqual(c.program.estimatedCostRange, { min, max });
    });
  }
});
