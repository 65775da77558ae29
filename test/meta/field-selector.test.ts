// Imports meta's private field-path readers beside the public selector parser.
// Field selectors: parsing, escaping and matching, and reading field paths from objects.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseFieldSelector, fieldSelectorFromSet, escapeFieldValue, SelectorParseError } from 'kube-converge/meta';
import { getFieldPath, fieldsOf } from '../../src/meta/field-selector.js';

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } },
  spec: { nodeName: 'node-a', hostNetwork: false, priority: 3, containers: [{ name: 'c' }] },
  status: { phase: 'Running', podIP: null },
};
const on = (obj: unknown) => (f: string) => getFieldPath(obj, f);

function parseError(text: string): SelectorParseError {
  try {
    parseFieldSelector(text);
  } catch (e) {
    assert.ok(e instanceof SelectorParseError, `expected SelectorParseError, got ${String(e)}`);
    return e;
  }
  assert.fail(`expected ${JSON.stringify(text)} not to parse`);
}

describe('field selectors', () => {
  it('matches =, == and != over dotted paths, AND-ed by commas', () => {
    assert.equal(parseFieldSelector('metadata.name=web-1').matches(on(pod)), true);
    assert.equal(parseFieldSelector('metadata.name==web-1,status.phase=Running').matches(on(pod)), true);
    assert.equal(parseFieldSelector('metadata.name=web-1,status.phase!=Running').matches(on(pod)), false);
    assert.equal(parseFieldSelector('spec.nodeName!=node-b').matches(on(pod)), true);
  });

  it('reads an absent field as the empty string', () => {
    assert.equal(parseFieldSelector('spec.missing=').matches(on(pod)), true);
    assert.equal(parseFieldSelector('spec.missing!=x').matches(on(pod)), true);
    assert.equal(parseFieldSelector('spec.missing=x').matches(on(pod)), false);
    assert.equal(parseFieldSelector('status.podIP=').matches(on(pod)), true);
  });

  it('selects everything for the empty string and for empty terms', () => {
    for (const text of ['', ',', ',,']) {
      const s = parseFieldSelector(text);
      assert.equal(s.empty(), true);
      assert.equal(
        s.matches(() => undefined),
        true,
      );
      assert.equal(s.toString(), '');
    }
    assert.equal(parseFieldSelector('a=b,,c=d').requirements.length, 2);
  });

  it('unescapes \\, \\= and \\\\ in values and escapes them again in toString', () => {
    const s = parseFieldSelector('data.k=a\\,b\\=c\\\\d');
    assert.deepEqual(s.requirements, [{ field: 'data.k', operator: '=', value: 'a,b=c\\d' }]);
    assert.equal(s.toString(), 'data.k=a\\,b\\=c\\\\d');
    assert.equal(
      s.matches((f) => (f === 'data.k' ? 'a,b=c\\d' : undefined)),
      true,
    );
    assert.equal(escapeFieldValue('x=y,z\\'), 'x\\=y\\,z\\\\');
    assert.deepEqual(parseFieldSelector(s.toString()).requirements, s.requirements);
  });

  it('normalises == to =, sorts terms, and does not trim whitespace', () => {
    const s = parseFieldSelector('b==2,a!=1');
    assert.deepEqual(s.requirements, [
      { field: 'a', operator: '!=', value: '1' },
      { field: 'b', operator: '=', value: '2' },
    ]);
    assert.equal(s.toString(), 'a!=1,b=2');
    assert.deepEqual(parseFieldSelector('a = b').requirements, [{ field: 'a ', operator: '=', value: ' b' }]);
  });

  it('splits a term at its first operator, so later = in the value must be escaped', () => {
    assert.deepEqual(parseFieldSelector('a=!b').requirements, [{ field: 'a', operator: '=', value: '!b' }]);
    const e = parseError('a=b=c');
    assert.equal(e.message, 'invalid field selector: unescaped character in value: =');
    assert.equal(e.position, 3);
  });

  it('rejects terms without an operator and bad escapes, with positions', () => {
    let e = parseError('metadata.name=x,oops');
    assert.equal(e.message, "invalid selector: 'metadata.name=x,oops'; can't understand 'oops'");
    assert.equal(e.position, 16);
    assert.equal(e.code, 'CONVERGE_SELECTOR_PARSE');
    e = parseError('a=x\\y');
    assert.equal(e.message, 'invalid field selector: invalid escape sequence: \\y');
    assert.equal(e.position, 3);
    e = parseError('a=x\\');
    assert.equal(e.message, 'invalid field selector: invalid escape sequence: \\');
    assert.equal(e.reason, 'invalid escape sequence: \\');
  });

  it('builds an exact-match selector from a field set', () => {
    const s = fieldSelectorFromSet({ 'metadata.namespace': 'default', 'metadata.name': 'web-1' });
    assert.equal(s.toString(), 'metadata.name=web-1,metadata.namespace=default');
    assert.equal(s.matches(on(pod)), true);
    const prefixed = fieldSelectorFromSet({ a: '2', 'a.b': '1' });
    assert.equal(prefixed.toString(), 'a.b=1,a=2');
    assert.deepEqual(parseFieldSelector(prefixed.toString()).requirements, prefixed.requirements);
  });

  it('tells which value a field is pinned to by an equality term', () => {
    const s = parseFieldSelector('metadata.name=web-1,metadata.namespace!=kube-system');
    assert.equal(s.requiresExactMatch('metadata.name'), 'web-1');
    assert.equal(s.requiresExactMatch('metadata.namespace'), undefined);
    assert.equal(s.requiresExactMatch('spec.nodeName'), undefined);
    assert.equal(parseFieldSelector('metadata.name==').requiresExactMatch('metadata.name'), '');
  });

  it('hands out immutable requirements', () => {
    const s = parseFieldSelector('a=b');
    assert.throws(() => (s.requirements as unknown[]).push({}), TypeError);
  });
});

describe('reading field paths', () => {
  it('returns strings as they are and numbers and booleans as text', () => {
    assert.equal(getFieldPath(pod, 'metadata.name'), 'web-1');
    assert.equal(getFieldPath(pod, 'spec.hostNetwork'), 'false');
    assert.equal(getFieldPath(pod, 'spec.priority'), '3');
    assert.equal(getFieldPath(pod, 'metadata.labels.app'), 'web');
  });

  it('returns undefined for absent paths, null, objects, arrays and prototype members', () => {
    assert.equal(getFieldPath(pod, 'spec.nope'), undefined);
    assert.equal(getFieldPath(pod, 'status.podIP'), undefined);
    assert.equal(getFieldPath(pod, 'spec'), undefined);
    assert.equal(getFieldPath(pod, 'spec.containers'), undefined);
    assert.equal(getFieldPath(pod, 'spec.containers.0.name'), undefined);
    assert.equal(getFieldPath(pod, 'metadata.constructor'), undefined);
    assert.equal(getFieldPath(undefined, 'a'), undefined);
  });

  it('collects present fields into a set', () => {
    assert.deepEqual(fieldsOf(pod, ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'spec.nope']), {
      'metadata.name': 'web-1',
      'metadata.namespace': 'default',
      'spec.nodeName': 'node-a',
    });
  });
});
