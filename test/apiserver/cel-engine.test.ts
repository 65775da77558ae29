// Imports the private cel/ face: a unit test of the CEL engine, which no layer face exports.
// The CEL engine with the Kubernetes libraries: compile errors worded as kube-apiserver words them,
// the cost estimate and the runtime cost limit, and each library on the cases rules use.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile, evaluate, toCelValue, PER_CALL_LIMIT, type CelType, type Declarations } from '../../src/apiserver/cel/index.js';

function run(expression: string, vars: Record<string, unknown> = {}, declarations: Declarations = {}): unknown {
  const decls: Declarations = { ...Object.fromEntries(Object.keys(vars).map((k) => [k, { kind: 'dyn' } as CelType])), ...declarations };
  const c = compile(expression, decls);
  if (!c.ok) throw new Error(c.error);
  const activation = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, toCelValue(v, decls[k]!)]));
  const r = evaluate(c.program, activation, PER_CALL_LIMIT);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

const spec: CelType = {
  kind: 'object',
  fields: { replicas: { kind: 'int' }, names: { kind: 'list', items: { kind: 'string' } } },
};

describe('CEL compilation', () => {
  it('reports a field the declared type does not have as cel-go does', () => {
    const c = compile('self.nonExistingField > 0', { self: spec });
    assert.equal(c.ok, false);
    assert.equal(
      !c.ok && c.error,
      "compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'\n | self.nonExistingField > 0\n | ....^",
    );
  });

  it('reports a comparison of unrelated types as a missing overload', () => {
    const c = compile('self == true', { self: { kind: 'int' } });
    assert.match(!c.ok ? c.error : '', /<input>:1:6: found no matching overload for '_==_' applied to '\(int, bool\)'/);
  });

  it('reports has() on a bare variable as an invalid macro argument', () => {
    const c = compile('has(self)', { self: spec });
    assert.match(!c.ok ? c.error : '', /invalid argument to has\(\) macro/);
  });

  it('reports a syntax error with its position', () => {
    const c = compile('self.replicas +', { self: spec });
    assert.match(!c.ok ? c.error : '', /^compilation failed: ERROR: <input>:1:16: Syntax error/);
  });

  it('reports an unknown function', () => {
    const c = compile('self.replicas.frobnicate()', { self: spec });
    assert.equal(c.ok, false);
  });

  it('marks an expression that mentions oldSelf', () => {
    const c = compile('self.replicas >= oldSelf.replicas', { self: spec, oldSelf: spec });
    assert.ok(c.ok && c.program.uses('oldSelf') && c.program.uses('self'));
  });
});

describe('CEL cost', () => {
  it('estimates a comprehension over an unbounded list as a whole request of elements', () => {
    const unbounded = compile("self.all(x, x.contains('a string'))", { self: { kind: 'list', items: { kind: 'string' } } });
    const bounded = compile("self.all(x, x.contains('a string'))", {
      self: { kind: 'list', items: { kind: 'string', maxLength: 10 }, maxItems: 25 },
    });
    assert.ok(unbounded.ok && bounded.ok);
    assert.ok(unbounded.program.estimatedCost > 1e9, String(unbounded.program.estimatedCost));
    assert.ok(bounded.program.estimatedCost < 1000, String(bounded.program.estimatedCost));
  });

  it('halts an evaluation that passes its budget instead of running it to the end', () => {
    const c = compile('self.all(x, self.all(y, x == y))', { self: { kind: 'list', items: { kind: 'int' } } });
    assert.ok(c.ok);
    const r = evaluate(c.program, { self: Array.from({ length: 3000 }, () => 1n) }, PER_CALL_LIMIT);
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.costExceeded);
    assert.equal(!r.ok && r.error, 'operation cancelled: actual cost limit exceeded');
  });

  it('reports the cost an evaluation used', () => {
    const c = compile('self.replicas > 1', { self: spec });
    assert.ok(c.ok);
    const r = evaluate(c.program, { self: toCelValue({ replicas: 2 }, spec) }, 100);
    assert.ok(r.ok && r.value === true && r.cost > 0 && r.cost < 10);
  });
});

describe('CEL values', () => {
  it('reads integers as int and drops null fields so has() is false', () => {
    assert.equal(run('self.replicas + 1 == 3 && !has(self.names)', { self: { replicas: 2, names: null } }, { self: spec }), true);
  });

  it('reads an int-or-string by its runtime type', () => {
    const d: Declarations = { self: { kind: 'intOrString' } };
    const rule = "type(self) == string ? self == '100%' : self == 1000";
    assert.equal(run(rule, { self: 1000 }, d), true);
    assert.equal(run(rule, { self: '100%' }, d), true);
    assert.equal(run(rule, { self: '50%' }, d), false);
  });

  it('reads date-time and duration strings as timestamps and durations', () => {
    const d: Declarations = {
      self: { kind: 'object', fields: { created: { kind: 'timestamp' }, ttl: { kind: 'duration' }, expired: { kind: 'timestamp' } } },
    };
    const obj = { created: '2024-01-01T00:00:00Z', ttl: '24h', expired: '2024-01-03T00:00:00Z' };
    assert.equal(run('self.created + self.ttl < self.expired', { self: obj }, d), true);
  });
});

describe('Kubernetes CEL libraries', () => {
  const cases: [string, unknown][] = [
    ["'hello'.charAt(1) == 'e' && 'a-b-c'.replace('-', '.') == 'a.b.c'", true],
    ['strings.quote(\'a"b\') == \'"a\\\\"b"\'', true],
    ["'MiXeD'.lowerAscii() == 'mixed' && '  x '.trim() == 'x' && 'a,b'.split(',') == ['a', 'b']", true],
    ['[1, 2, 3].isSorted() && [1, 2, 3].sum() == 6 && [3, 1, 2].min() == 1 && [3, 1, 2].max() == 3', true],
    ['[1, 2, 3, 2].indexOf(2) == 1 && [1, 2, 3, 2].lastIndexOf(2) == 3', true],
    ["'abc 123 def 456'.find('[0-9]+') == '123' && 'abc 123 def 456'.findAll('[0-9]+') == ['123', '456']", true],
    ["url('https://example.com:8080/path?q=1').getHost() == 'example.com:8080'", true],
    ["url('https://example.com/path').getScheme() == 'https' && url('/abs/path').getEscapedPath() == '/abs/path'", true],
    ["isURL('https://example.com') && !isURL('not a url')", true],
    ["quantity('1Gi').isGreaterThan(quantity('1000Mi')) && quantity('500m').asApproximateFloat() == 0.5", true],
    ["quantity('0.1').add(quantity('0.2')) == quantity('300m') && isQuantity('1.5Gi') && !isQuantity('1.5GiB')", true],
    ["quantity('2').asInteger() == 2 && quantity('1.5').isInteger() == false && quantity('-1').sign() == -1", true],
    ["ip('10.0.0.1').family() == 4 && ip('::1').family() == 6 && ip('127.0.0.1').isLoopback()", true],
    ["cidr('10.0.0.0/8').containsIP(ip('10.1.2.3')) && !cidr('10.0.0.0/8').containsIP('11.0.0.1')", true],
    ["cidr('192.168.1.5/24').masked() == cidr('192.168.1.0/24') && cidr('192.168.0.0/16').prefixLength() == 16", true],
    ["isIP('1.2.3.4') && !isIP('1.2.3') && isCIDR('::/0') && !isCIDR('10.0.0.0/33')", true],
    ["string(ip('2001:db8:0:0:0:0:0:1')) == '2001:db8::1'", true],
    ["!format.dns1123Label().validate('my-name').hasValue() && format.dns1123Label().validate('My_Name').hasValue()", true],
    ["format.named('dns1123Subdomain').hasValue() && !format.named('nope').hasValue()", true],
    ["'%s has %d replicas'.format(['web', 3]) == 'web has 3 replicas'", true],
    ['optional.of(1).optMap(x, x + 1).value() == 2 && !optional.none().optMap(x, x + 1).hasValue()', true],
    ["{'a': 1}.?b.orValue(5) == 5 && {'a': 1}.?a.orValue(5) == 1", true],
    ['cel.bind(x, [1, 2, 3], x.size() == 3)', true],
  ];
  for (const [expression, expected] of cases) {
    it(`evaluates ${expression}`, () => assert.equal(run(expression), expected));
  }

  it('turns a bad library input into an evaluation error', () => {
    const c = compile("quantity('lots') == quantity('1')", {});
    assert.ok(c.ok);
    const r = evaluate(c.program, {}, PER_CALL_LIMIT);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.error : '', /quantities must match the regular expression/);
  });
});
