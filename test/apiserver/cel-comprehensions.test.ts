// Imports the private cel/ face: a unit test of the two-variable comprehensions, which no layer face exports.
// cel-go's two-variable comprehensions (in Kubernetes from 1.32), held to the examples of cel-go's
// own documentation (ext/comprehensions.go): index and value over a list, key and value over a
// map, filters, the errors they make, and a cost estimate that grows with the range's bound.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile, evaluate, PER_CALL_LIMIT, toCelValue, type CelType } from '../../src/apiserver/cel/index.js';

const LIST: CelType = { kind: 'list', items: { kind: 'int' }, maxItems: 10 };
const MAP: CelType = { kind: 'map', values: { kind: 'string', maxLength: 16 }, maxProperties: 10 };

function run(expression: string, type: CelType, value: unknown): { ok: boolean; value?: unknown; error?: string } {
  const c = compile(expression, { self: type });
  assert.ok(c.ok, c.ok ? '' : c.error);
  const r = evaluate(c.program, { self: toCelValue(value, type) }, PER_CALL_LIMIT);
  return r.ok ? { ok: true, value: r.value } : { ok: false, error: r.error };
}

describe('two-variable comprehensions', () => {
  it('give the answers of cel-go documentation examples', () => {
    const cases: [string, CelType, unknown, unknown][] = [
      ['self.all(i, j, i < j)', LIST, [1, 2, 3], true],
      ['self.all(k, v, k != v)', MAP, { hello: 'world', taco: 'taco' }, false],
      ["self.exists(k, v, k.startsWith('good') || v.endsWith('bye'))", MAP, { greeting: 'hello', farewell: 'goodbye' }, true],
      ['self.exists(i, v, v == 1024 && i == 10)', LIST, [1, 2, 4, 8, 16], false],
      ['self.existsOne(i, v, i == 1 || v == 1)', LIST, [1, 2, 1, 3, 1, 4], false],
      ['self.existsOne(i, v, i == 2 && v == 2)', LIST, [1, 1, 2, 2, 3, 3], true],
      ['self.exists_one(i, v, i == 2 && v == 2)', LIST, [1, 1, 2, 2, 3, 3], true],
      ['self.transformList(i, v, (i * v) + v)', LIST, [1, 2, 3], [1n, 4n, 9n]],
      ['self.transformList(i, v, i % 2 == 0, (i * v) + v)', LIST, [1, 2, 3], [1n, 9n]],
      ['self.transformList(k, _, k)', MAP, { greeting: 'hello', farewell: 'goodbye' }, ['greeting', 'farewell']],
      ["self.transformMap(k, v, v + '!')", MAP, { greeting: 'hello' }, { greeting: 'hello!' }],
      ['self.transformMapEntry(k, v, {v: k})', MAP, { greeting: 'hello' }, { hello: 'greeting' }],
    ];
    for (const [expression, type, value, expected] of cases) {
      assert.deepEqual(run(expression, type, value), { ok: true, value: expected }, expression);
    }
  });

  it('refuse a key made twice, and the same name for both variables', () => {
    assert.deepEqual(run("self.transformMapEntry(k, v, {'same': v})", MAP, { a: 'x', b: 'y' }), {
      ok: false,
      error: 'insert failed: key same already exists',
    });
    const c = compile('self.all(i, i, true)', { self: LIST });
    assert.ok(!c.ok && c.error.includes('duplicate variable name: i'), c.ok ? '' : c.error);
  });

  it('let `all` be decided by a false element even when another element fails', () => {
    assert.deepEqual(run('self.all(i, v, 10 / (v - 1) > 0 && v < 3)', LIST, [1, 5]), { ok: true, value: false });
    assert.equal(run('self.all(i, v, 10 / (v - 1) > 0)', LIST, [1, 2]).ok, false);
  });

  it('are estimated per element of the range, as their one-variable forms are', () => {
    const cost = (expression: string, maxItems: number): number => {
      const c = compile(expression, { self: { ...LIST, maxItems } as CelType });
      assert.ok(c.ok, c.ok ? '' : c.error);
      return c.program.estimatedCost;
    };
    assert.equal(cost('self.all(i, v, v > 0)', 10), cost('self.all(v, v > 0)', 10), 'the same loop as the one-variable form');
    assert.equal(cost('self.all(i, v, i > 0)', 10), cost('self.all(v, v > 0)', 10));
    assert.ok(cost('self.transformList(i, v, v * 2)', 100) > 5 * cost('self.transformList(i, v, v * 2)', 10));
  });
});
