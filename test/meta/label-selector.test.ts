// Label selectors in both forms, the string grammar and the LabelSelector struct, parsed and matched
// as the API server does.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseLabelSelector,
  selectorFromLabelSelector,
  selectorFromSet,
  everything,
  nothing,
  SelectorParseError,
  ConvergeError,
} from 'kube-converge/meta';

const sel = parseLabelSelector;

function parseError(text: string): SelectorParseError {
  try {
    parseLabelSelector(text);
  } catch (e) {
    assert.ok(e instanceof SelectorParseError, `expected SelectorParseError, got ${String(e)}`);
    return e;
  }
  assert.fail(`expected ${JSON.stringify(text)} not to parse`);
}

describe('label selector string grammar', () => {
  it('matches equality with =, == and inequality with != (absent keys satisfy !=)', () => {
    assert.equal(sel('app=web').matches({ app: 'web' }), true);
    assert.equal(sel('app==web').matches({ app: 'web' }), true);
    assert.equal(sel('app=web').matches({ app: 'db' }), false);
    assert.equal(sel('app=web').matches({}), false);
    assert.equal(sel('app!=web').matches({ app: 'db' }), true);
    assert.equal(sel('app!=web').matches({}), true);
    assert.equal(sel('app!=web').matches({ app: 'web' }), false);
  });

  it('matches set membership with in and notin (absent keys satisfy notin)', () => {
    assert.equal(sel('env in (prod,qa)').matches({ env: 'qa' }), true);
    assert.equal(sel('env in (prod,qa)').matches({ env: 'dev' }), false);
    assert.equal(sel('env in (prod,qa)').matches({}), false);
    assert.equal(sel('env notin (prod,qa)').matches({ env: 'dev' }), true);
    assert.equal(sel('env notin (prod,qa)').matches({}), true);
    assert.equal(sel('env notin (prod,qa)').matches({ env: 'prod' }), false);
  });

  it('matches existence with key and absence with !key', () => {
    assert.equal(sel('tier').matches({ tier: '' }), true);
    assert.equal(sel('tier').matches({}), false);
    assert.equal(sel('!tier').matches({}), true);
    assert.equal(sel('!tier').matches({ tier: 'x' }), false);
  });

  it('compares integers with > and <, and a non-integer label never matches', () => {
    assert.equal(sel('gen>5').matches({ gen: '6' }), true);
    assert.equal(sel('gen>5').matches({ gen: '5' }), false);
    assert.equal(sel('gen<5').matches({ gen: '4' }), true);
    assert.equal(sel('gen<5').matches({ gen: 'x' }), false);
    assert.equal(sel('gen<5').matches({}), false);
    assert.equal(sel('gen>9223372036854775806').matches({ gen: '9223372036854775807' }), true);
  });

  it('ANDs comma-separated requirements and allows whitespace around tokens', () => {
    const s = sel(' app = web ,  env in ( prod , qa ) , !legacy ');
    assert.equal(s.matches({ app: 'web', env: 'prod' }), true);
    assert.equal(s.matches({ app: 'web', env: 'prod', legacy: 'yes' }), false);
    assert.equal(s.matches({ app: 'web', env: 'dev' }), false);
  });

  it('treats the empty string as everything, and undefined labels as the empty set', () => {
    for (const text of ['', '   ', '\t\n']) {
      const s = sel(text);
      assert.equal(s.empty(), true);
      assert.equal(s.matches(undefined), true);
      assert.equal(s.toString(), '');
    }
    assert.equal(sel('!a').matches(undefined), true);
    assert.equal(sel('a').matches(undefined), false);
  });

  it('reads only own labels, never Object.prototype members', () => {
    assert.equal(sel('constructor').matches({}), false);
    assert.equal(sel('!toString').matches({}), true);
    assert.equal(sel('hasOwnProperty!=x').matches({}), true);
  });

  it('accepts empty values: k=, k in (), (,a), (a,) and (a,,b)', () => {
    assert.equal(sel('a=').matches({ a: '' }), true);
    assert.equal(sel('a=,b').matches({ a: '', b: 'x' }), true);
    assert.equal(sel('a in ()').matches({ a: '' }), true);
    assert.deepEqual(sel('a in (,x)').requirements[0]!.values, ['', 'x']);
    assert.deepEqual(sel('a in (x,)').requirements[0]!.values, ['', 'x']);
    assert.deepEqual(sel('a in (x,,y)').requirements[0]!.values, ['', 'x', 'y']);
  });

  it('treats in and notin as plain words in value position', () => {
    assert.equal(sel('a=in').matches({ a: 'in' }), true);
    assert.equal(sel('a in (notin,in)').matches({ a: 'notin' }), true);
  });

  it('prints a canonical form: requirements sorted by key, set values sorted and distinct', () => {
    const s = sel('z in (b,a,b), a!=1, !m, k, n notin (y,x), g>3, h<4, e==2');
    assert.equal(s.toString(), 'a!=1,e==2,g>3,h<4,k,!m,n notin (x,y),z in (a,b)');
    assert.deepEqual(
      s.requirements.map((r) => r.operator),
      ['!=', '==', 'gt', 'lt', 'exists', '!', 'notin', 'in'],
    );
    assert.deepEqual(s.requirements[7], { key: 'z', operator: 'in', values: ['a', 'b'] });
    assert.equal(sel(s.toString()).toString(), s.toString());
  });

  it('keeps requirements on the same key in written order', () => {
    assert.equal(sel('b=1,a=2,a!=3').toString(), 'a=2,a!=3,b=1');
  });

  it('accepts prefixed keys and rejects invalid keys with the qualified-name rules', () => {
    assert.equal(sel('example.com/tier=front').matches({ 'example.com/tier': 'front' }), true);
    for (const bad of ['a/b/c', '/a', 'Example.com/a', '-a', `${'k'.repeat(64)}`, `${'p'.repeat(254)}/a`]) {
      const e = parseError(`${bad}=x`);
      assert.match(e.message, /^unable to parse requirement: key: Invalid value/, bad);
      assert.equal(e.position, 0);
    }
    assert.match(parseError('a/b/c').reason, /a qualified name must consist of/);
    assert.match(parseError('/a').reason, /prefix part must be non-empty/);
    assert.match(parseError(`${'k'.repeat(64)}`).reason, /name part must be no more than 63 characters/);
  });

  it('rejects invalid values with the label-value rules, pointing at the value', () => {
    const e = parseError('app=-web');
    assert.equal(e.position, 4);
    assert.match(
      e.message,
      /^unable to parse requirement: values\[0\]\[app\]: Invalid value: "-web": a valid label must be an empty string/,
    );
    assert.equal(parseError(`app=${'v'.repeat(64)}`).position, 4);
    assert.equal(parseError('app in (ok, bad_)').position, 12);
    assert.match(parseError('gen>abc').reason, /for 'Gt', 'Lt' operators, the value must be an integer/);
    assert.match(parseError('gen>-1').reason, /a valid label must be/);
  });

  it('reports syntax errors with the found token, what was expected, and its position', () => {
    const cases: [string, string, number][] = [
      ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt", 2],
      ['a in b', "unable to parse requirement: found 'b' expected: '('", 5],
      ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'", 7],
      ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier", 6],
      ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier", 8],
      ['a=(b)', "unable to parse requirement: found '(', expected: identifier", 2],
      ['! =a', "unable to parse requirement: found '=', expected: identifier", 2],
      ['!=a', "found '!=', expected: !, identifier, or 'end of string'", 0],
      ['a,', "found '', expected: identifier after ','", 2],
      ['a=b c', "found 'c', expected: ',' or 'end of string'", 4],
      ['!a=b', "found '=', expected: ',' or 'end of string'", 2],
      [',a', "found ',', expected: !, identifier, or 'end of string'", 0],
      ['a===b', "unable to parse requirement: found '=', expected: identifier", 3],
    ];
    for (const [text, message, position] of cases) {
      const e = parseError(text);
      assert.equal(e.message, message, text);
      assert.equal(e.position, position, text);
      assert.equal(e.code, 'CONVERGE_SELECTOR_PARSE');
      assert.ok(ConvergeError.is(e));
      assert.ok(message.endsWith(e.reason), text);
    }
  });
});

describe('LabelSelector struct form', () => {
  it('matches nothing for null or undefined and everything for an empty struct', () => {
    for (const s of [selectorFromLabelSelector(null), selectorFromLabelSelector(undefined), nothing()]) {
      assert.equal(s.matches({}), false);
      assert.equal(s.matches({ a: 'b' }), false);
      assert.equal(s.empty(), false);
    }
    for (const s of [selectorFromLabelSelector({}), selectorFromLabelSelector({ matchLabels: {}, matchExpressions: [] }), everything()]) {
      assert.equal(s.matches({ a: 'b' }), true);
      assert.equal(s.empty(), true);
    }
  });

  it('ANDs matchLabels with In, NotIn, Exists and DoesNotExist expressions', () => {
    const s = selectorFromLabelSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'qa'] },
        { key: 'zone', operator: 'NotIn', values: ['b'] },
        { key: 'tier', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    assert.equal(s.matches({ app: 'web', env: 'qa', tier: 'f' }), true);
    assert.equal(s.matches({ app: 'web', env: 'qa', tier: 'f', zone: 'b' }), false);
    assert.equal(s.matches({ app: 'web', env: 'qa' }), false);
    assert.equal(s.matches({ app: 'web', env: 'qa', tier: 'f', legacy: '1' }), false);
    assert.equal(s.toString(), 'app=web,env in (prod,qa),!legacy,tier,zone notin (b)');
  });

  it('rejects In/NotIn without values, Exists/DoesNotExist with values, and unknown operators', () => {
    const cases: [Parameters<typeof selectorFromLabelSelector>[0], RegExp][] = [
      [{ matchExpressions: [{ key: 'a', operator: 'In' }] }, /values set can't be empty/],
      [{ matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] }, /values set can't be empty/],
      [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, /values set must be empty for exists and does not exist/],
      [{ matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['x'] }] }, /values set must be empty/],
      [{ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, /^"Gt" is not a valid label selector operator$/],
      [{ matchLabels: { 'a/b/c': 'x' } }, /key: Invalid value: "a\/b\/c"/],
      [{ matchLabels: { a: 'not valid' } }, /values\[0\]\[a\]: Invalid value: "not valid"/],
    ];
    for (const [struct, re] of cases) {
      assert.throws(
        () => selectorFromLabelSelector(struct),
        (e: unknown) => {
          assert.ok(e instanceof SelectorParseError);
          assert.match(e.message, re);
          assert.equal(e.position, undefined);
          return true;
        },
      );
    }
  });

  it('builds an equality selector from a label set, everything for the empty set', () => {
    const s = selectorFromSet({ b: '2', a: '1' });
    assert.equal(s.toString(), 'a=1,b=2');
    assert.equal(s.matches({ a: '1', b: '2', c: '3' }), true);
    assert.equal(s.matches({ a: '1' }), false);
    assert.equal(selectorFromSet({}).empty(), true);
    assert.throws(() => selectorFromSet({ a: '!' }), SelectorParseError);
  });

  it('hands out immutable requirements', () => {
    const s = sel('a in (x,y)');
    assert.throws(() => (s.requirements as unknown[]).push({}), TypeError);
    assert.throws(() => (s.requirements[0]!.values as string[]).push('z'), TypeError);
    assert.throws(() => {
      (s.requirements[0] as { key: string }).key = 'b';
    }, TypeError);
  });
});
