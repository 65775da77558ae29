// Imports the API server's private CEL internals: these tables hold the cost estimator itself, which no public face exposes.
// The cost estimate held to apiextensions-apiserver's own table (pkg/apiserver/schema/cel,
// TestCostEstimation): each schema with one rule, estimated once without size bounds (sizes from
// the 3 MiB request limit) and once with `maxItems`/`maxProperties`/`maxLength` set, to the exact
// cost kube-apiserver computes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { compile } from '../../src/apiserver/cel/index.js';
import { celTypeOf } from '../../src/apiserver/schema/cel-declarations.js';

type Gen = (max: number | undefined) => JSONSchemaProps;
const leaf = (t: string): JSONSchemaProps =>
  t === 'int-or-string'
    ? ({ 'x-kubernetes-int-or-string': true } as JSONSchemaProps)
    : ['duration', 'date', 'date-time'].includes(t)
      ? { type: 'string', format: t }
      : { type: t };
const opt = (key: string, v: number | undefined): Record<string, number> => (v === undefined ? {} : { [key]: v });
const array =
  (t: string): Gen =>
  (m) => ({ type: 'array', items: leaf(t), ...opt('maxItems', m) });
const arrayOfArrays =
  (t: string): Gen =>
  (m) => ({ type: 'array', items: { type: 'array', items: leaf(t) }, ...opt('maxItems', m) });
const requiredObject = (): JSONSchemaProps => ({
  type: 'object',
  required: ['required'],
  properties: { required: { type: 'string' }, optional: { type: 'string' } },
});
const objectArray: Gen = (m) => ({ type: 'array', items: requiredObject(), ...opt('maxItems', m) });
const mapArray =
  (t: string): Gen =>
  (m) => ({ type: 'array', items: { type: 'object', additionalProperties: leaf(t) }, ...opt('maxItems', m) });
const map =
  (t: string): Gen =>
  (m) => ({ type: 'object', additionalProperties: leaf(t), ...opt('maxProperties', m) });
const mapOf =
  (item: JSONSchemaProps): Gen =>
  (m) => ({ type: 'object', additionalProperties: item, ...opt('maxProperties', m) });
const string: Gen = (m) => ({ type: 'string', ...opt('maxLength', m) });
const bytes: Gen = (m) => ({ type: 'string', format: 'byte', ...opt('maxLength', m) });
const nestedSpec: Gen = (m) => ({
  type: 'object',
  additionalProperties: { type: 'string', ...opt('maxLength', m) },
  ...opt('maxProperties', m),
});
const allMaxNested: Gen = (m) => ({
  type: 'array',
  items: { type: 'object', additionalProperties: { ...requiredObject(), ...opt('maxProperties', m) }, ...opt('maxProperties', m) },
  ...opt('maxItems', m),
});
const oneMaxNested: Gen = (m) => ({
  type: 'array',
  items: { type: 'object', additionalProperties: requiredObject(), ...opt('maxProperties', m) },
});
const enumOf =
  (...values: string[]): Gen =>
  (m) => ({ type: 'string', enum: values, ...opt('maxLength', m) });
const stringList: Gen = (m) => ({ type: 'array', items: { type: 'string', ...opt('maxLength', m) }, ...opt('maxItems', m) });

// [name, schema, rule, cost without bounds (or 'over' the per-call limit), bound set, cost with it]
const CASES: [string, Gen, string, number | 'over', number, number][] = [
  ['number array with all', array('number'), 'self.all(x, true)', 4718591, 10, 32],
  ['string array with all', array('string'), 'self.all(x, true)', 3145727, 20, 62],
  ['boolean array with all', array('boolean'), 'self.all(x, true)', 1887437, 5, 17],
  ['array of number arrays with all', arrayOfArrays('number'), 'self.all(x, true)', 3145727, 100, 302],
  ['array of objects with all', objectArray, 'self.all(x, true)', 555128, 50, 152],
  ['map of numbers with all', map('number'), 'self.all(x, true)', 1348169, 10, 32],
  ['map of strings with all', map('string'), 'self.all(x, true)', 1179647, 3, 11],
  ['map of booleans with all', map('boolean'), 'self.all(x, true)', 943718, 100, 302],
  ['string with contains', string, "self.contains('test')", 314574, 10, 5],
  ['string with startsWith', string, "self.startsWith('test')", 2, 15, 2],
  ['string with endsWith', string, "self.endsWith('test')", 2, 30, 2],
  ['concat string', string, 'size(self + "hello") > size("hello")', 314578, 4, 7],
  ['index of array with numbers', array('number'), 'self[1] == 0.0', 2, 5000, 2],
  ['index of array with strings', array('string'), 'self[1] == self[1]', 314577, 8, 314577],
  ['O(n^2) loop with numbers', array('number'), 'self.all(x, self.all(y, true))', 'over', 10, 352],
  ['O(n^3) loop with numbers', array('number'), 'self.all(x, self.all(y, self.all(z, true)))', 'over', 10, 3552],
  ['regex matches simple', string, 'self.matches("x")', 314574, 50, 22],
  ['regex matches empty string', string, '"".matches("(((((((((())))))))))[0-9]")', 7, 10, 7],
  ['regex matches empty regex', string, 'self.matches("")', 1, 100, 1],
  ['map of strings with value length', nestedSpec, 'self.all(x, x.contains(self[x]))', 2752507, 10, 72],
  ['set array maxLength to zero', array('number'), 'self[3] == 0.0', 2, 0, 2],
  ['set map maxLength to zero', map('number'), 'self["x"] == 0.0', 2, 0, 2],
  ['set string maxLength to zero', string, 'self == "x"', 2, 0, 1],
  ['set bytes maxLength to zero', bytes, 'self == b"x"', 2, 0, 1],
  ['set maxLength greater than estimated maxLength', array('number'), 'self.all(x, x == 0.0)', 6291454, 3 * 1024 * 2048, 25165826],
  ['nested types with root rule with all supporting maxLength', allMaxNested, 'self.all(x, x["y"].required == "z")', 7340027, 10, 72],
  ['nested types with root rule with one supporting maxLength', oneMaxNested, 'self.all(x, x["y"].required == "z")', 7340027, 10, 7340027],
  ['int-or-string array with all', array('int-or-string'), 'self.all(x, true)', 4718591, 10, 32],
  ['index of array with int-or-strings', array('int-or-string'), 'self[0] == 5', 3, 10, 3],
  ['index of array with booleans', array('boolean'), 'self[0] == false', 2, 25, 2],
  ['index of array of objects', objectArray, 'self[0] == null', 2, 422, 2],
  ['index of array of array of numbers', arrayOfArrays('number'), 'self[0][0] == -1.0', 3, 51, 3],
  ['array of number maps with all', mapArray('number'), 'self.all(x, x.y == 25.2)', 6291452, 12, 74],
  ['index of array of number maps', mapArray('number'), 'self[0].x > 2.0', 4, 3000, 4],
  ['duration array with all', array('duration'), 'self.all(x, true)', 2359295, 5, 17],
  ['index of duration array', array('duration'), 'self[0].getHours() == 2', 4, 525, 4],
  ['date array with all', array('date'), 'self.all(x, true)', 725936, 15, 47],
  ['index of date array', array('date'), 'self[2].getDayOfMonth() == 13', 4, 42, 4],
  ['date-time array with all', array('date-time'), 'self.all(x, true)', 428963, 25, 77],
  ['index of date-time array', array('date-time'), 'self[2].getMinutes() == 45', 4, 99, 4],
  ['map of int-or-strings with all', map('int-or-string'), 'self.all(x, true)', 1348169, 15, 47],
  ['map of objects with all', mapOf(requiredObject()), 'self.all(x, true)', 428963, 20, 62],
  [
    'map of number maps with all',
    mapOf({ type: 'object', additionalProperties: { type: 'number' } }),
    'self.all(x, true)',
    1179647,
    10,
    32,
  ],
  ['map of number arrays with all', mapOf({ type: 'array', items: { type: 'number' } }), 'self.all(x, true)', 1179647, 25, 77],
  ['map of durations with all', map('duration'), 'self.all(x, true)', 1048577, 5, 17],
  ['map of dates with all', map('date'), 'self.all(x, true)', 524288, 10, 32],
  ['map of date-times with all', map('date-time'), 'self.all(x, true)', 349526, 25, 77],
  ['extended library regex find', string, "self.find('[0-9]+') == ''", 629147, 10, 11],
  ['extended library join', stringList, "self.join(' ') == 'aa bb'", 329853068905, 10, 43],
  ['extended library isSorted', stringList, 'self.isSorted() == true', 329854432052, 10, 52],
  [
    'extended library replace',
    (m) => ({
      type: 'object',
      properties: { str: string(m), before: { type: 'string', maxLength: 2 }, after: { type: 'string', maxLength: 4 } },
    }),
    "self.str.replace(self.before, self.after) == 'does not matter'",
    629154,
    4,
    12,
  ],
  [
    'extended library split',
    (m) => ({ type: 'object', properties: { str: string(m), separator: string(m) } }),
    'self.str.split(self.separator) == []',
    629160,
    10,
    22,
  ],
  ['extended library lowerAscii', string, "self.lowerAscii() == 'lower!'", 314575, 10, 6],
  ['check cost of size call', map('integer'), 'oldSelf.size() == self.size()', 5, 10, 5],
  ['check cost of timestamp comparison', map('date-time'), 'self["a"] == self["b"]', 8, 7, 8],
  ['check cost of duration comparison', map('duration'), 'self["c"] == self["d"]', 8, 42, 8],
  ['enums with maxLength equals to the longest possible value', enumOf('A', 'B', 'C', 'LongValue'), "self.contains('A')", 2, 1000, 401],
  [
    'IntOrString type with quantity rule',
    (m) => ({ 'x-kubernetes-int-or-string': true, ...opt('maxLength', m) }) as JSONSchemaProps,
    'isQuantity(self)',
    314574,
    20,
    9,
  ],
];

function cost(schema: JSONSchemaProps, rule: string): number {
  const t = celTypeOf(schema);
  const c = compile(rule, { self: t, oldSelf: t });
  if (!c.ok) throw new Error(c.error);
  return c.program.estimatedCost;
}

describe('CEL cost estimation, as apiextensions-apiserver estimates it', () => {
  for (const [name, gen, rule, unbounded, bound, bounded] of CASES) {
    it(`${name}: ${rule}`, () => {
      const free = cost(gen(undefined), rule);
      if (unbounded === 'over') assert.ok(free > 1_000_000, `${free}`);
      else assert.equal(free, unbounded, 'without bounds');
      assert.equal(cost(gen(bound), rule), bounded, `with bounds of ${bound}`);
    });
  }
});
