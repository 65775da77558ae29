// Imports the API server's private CEL internals: these tables hold the cost estimator itself, which no public face exposes.
// The cost estimate held to cel-go's checker table (checker/cost_test.go): the cases over literals,
// and those whose size hints are what a declared bound gives (a list's maxItems, a string's size).
// Left out: protobuf messages, size hints on map keys, and scalars without a hint, which cel-go
// sizes 1 where kube-apiserver's declared types size them 0.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile, type CelType, type Declarations } from '../../src/apiserver/cel/index.js';

const INT: CelType = { kind: 'int' };
const BOOL: CelType = { kind: 'bool' };
const list = (items: CelType, maxItems?: number): CelType => ({ kind: 'list', items, ...(maxItems === undefined ? {} : { maxItems }) });
const str = (maxLength?: number): CelType => ({ kind: 'string', ...(maxLength === undefined ? {} : { maxLength }) });
const map = (values: CelType, maxProperties: number): CelType => ({ kind: 'map', values, maxProperties });

// [name, expression, declarations, estimated least cost, estimated most cost]
const CASES: [string, string, Declarations, number, number][] = [
  ['const', '"Hello World!"', {}, 0, 0],
  ['identity', 'input', { input: list(INT) }, 1, 1],
  ['create list', '[1, 2, 3]', {}, 10, 10],
  ['create map', '{"a": 1, "b": 2, "c": 3}', {}, 30, 30],
  ['all comprehension', 'input.all(x, true)', { input: list(INT, 100) }, 2, 302],
  ['nested all comprehension', 'input.all(x, x.all(y, true))', { input: list(list(INT, 10), 50) }, 2, 1752],
  ['all comprehension on literal', '[1, 2, 3].all(x, true)', {}, 20, 20],
  ['variable cost function', "input.matches('[0-9]')", { input: str(500) }, 3, 103],
  ['variable cost function with constant', "'123'.matches('[0-9]')", {}, 2, 2],
  ['or', 'true || false', {}, 0, 0],
  ['or accumulated branch cost', 'a || b || c || d', { a: BOOL, b: BOOL, c: BOOL, d: BOOL }, 1, 4],
  ['and', 'true && false', {}, 0, 0],
  ['and accumulated branch cost', 'a && b && c && d', { a: BOOL, b: BOOL, c: BOOL, d: BOOL }, 1, 4],
  ['lt', '1 < 2', {}, 1, 1],
  ['lte', '1 <= 2', {}, 1, 1],
  ['eq', '1 == 2', {}, 1, 1],
  ['gt', '2 > 1', {}, 1, 1],
  ['gte', '2 >= 1', {}, 1, 1],
  ['in', '2 in [1, 2, 3]', {}, 13, 13],
  ['plus', '1 + 1', {}, 1, 1],
  ['minus', '1 - 1', {}, 1, 1],
  ['/', '1 / 1', {}, 1, 1],
  ['*', '1 * 1', {}, 1, 1],
  ['%', '1 % 1', {}, 1, 1],
  ['ternary', 'true ? 1 : 2', {}, 0, 0],
  ['string size', 'size("123")', {}, 1, 1],
  ['bytes size', 'size(b"123")', {}, 1, 1],
  ['int to string conversion', 'string(1)', {}, 1, 1],
  ['contains', 'input.contains(arg1)', { input: str(500), arg1: str(500) }, 2, 2502],
  ['matches', "input.matches('\\\\d+a\\\\d+b')", { input: str(500) }, 3, 103],
  ['startsWith', 'input.startsWith(arg1)', { input: str(), arg1: str(500) }, 2, 52],
  ['endsWith', 'input.endsWith(arg1)', { input: str(), arg1: str(500) }, 2, 52],
  ['list concat', '(list1 + list2).all(x, true)', { list1: list(INT, 10), list2: list(INT, 10) }, 4, 64],
  ['str concat', '"abcdefg".contains(str1 + str2)', { str1: str(10), str2: str(10) }, 2, 6],
  ['list size comparison', 'list1.size() == list2.size()', { list1: list(INT), list2: list(INT) }, 5, 5],
  ['comprehension over nested map of maps', 'input.all(k, input[k].all(x, true))', { input: map(map(INT, 10), 5) }, 2, 187],
  ['nested subexpression operators', '((5 != 6) == (1 == 2)) == ((3 <= 4) == (9 != 9))', {}, 7, 7],
  ['.filter list literal', '[1,2,3,4,5].filter(x, x % 2 == 0)', {}, 41, 101],
  ['.map list literal', '[1,2,3,4,5].map(x, x)', {}, 86, 86],
  ['.map.filter list literal', '[1,2,3,4,5].map(x, x).filter(x, x % 2 == 0)', {}, 117, 177],
  ['.map.exists list literal', '[1,2,3,4,5].map(x, x).exists(x, x == 5) == true', {}, 108, 118],
  ['.map.map list literal', '[1,2,3,4,5].map(x, x).map(x, x)', {}, 162, 162],
  ['.map list literal selection', '[1,2,3,4,5].map(x, x)[4]', {}, 87, 87],
  ['nested array selection', '[[1,2],[1,2],[1,2],[1,2],[1,2]][4]', {}, 61, 61],
  ['nested map selection', "{'a': [1,2], 'b': [1,2], 'c': [1,2], 'd': [1,2], 'e': [1,2]}.b", {}, 81, 81],
  ['comprehension on nested list', '[[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]].all(y, y.all(y, y == 1))', {}, 76, 136],
  ['comprehension on transformed nested list', '[1,2,3,4,5].map(x, [x, x]).all(y, y.all(y, y == 1))', {}, 157, 217],
  [
    'comprehension on nested literal list',
    '["a", "ab", "abc", "abcd", "abcde"].map(x, [x, x]).all(y, y.all(y, y.startsWith(\'a\')))',
    {},
    157,
    217,
  ],
  ['comprehension chaining with concat', '[1,2,3,4,5].map(x, x).map(x, x) + [1]', {}, 173, 173],
  ['nested comprehension', '[1,2,3].all(i, i in [1,2,3].map(j, j + j))', {}, 20, 230],
  ['nested dyn comprehension', 'dyn([1,2,3]).all(i, i in dyn([1,2,3]).map(j, j + j))', {}, 21, 234],
  ['literal map access', "{'hello': 'hi'}['hello'] != {'hello': 'bye'}['hello']", {}, 63, 63],
  ['literal list access', "['hello', 'hi'][0] != ['hello', 'bye'][1]", {}, 23, 23],
  ['type call', 'type(1)', {}, 1, 1],
];

describe("CEL costs, as cel-go's checker estimates them", () => {
  for (const [name, expression, declarations, min, max] of CASES) {
    it(`${name}: ${expression}`, () => {
      const c = compile(expression, declarations);
      assert.ok(c.ok, c.ok ? '' : c.error);
      assert.deepEqual(c.program.estimatedCostRange, { min, max });
    });
  }
});
