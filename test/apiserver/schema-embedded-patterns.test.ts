// Imports the API server's private schema functions: these are apiextensions-apiserver's unit tables, held against the functions they test.
// Two things kube does to custom resources that our schema layer had to learn: RE2 patterns (the
// spellings Go accepts and JavaScript does not, and what RE2 refuses), and the apiVersion, kind
// and metadata checks of objects marked x-kubernetes-embedded-resource.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { validateAgainstSchema, validateCustomResource, validateStructuralSchema } from '../../src/apiserver/schema/index.js';

const matches = (pattern: string, value: string): boolean => validateAgainstSchema(value, { type: 'string', pattern }).length === 0;

describe('RE2 patterns', () => {
  it('honours inline case-insensitivity, at the start and inside a group (as prometheus-operator CRDs use it)', () => {
    assert.ok(matches('^(?i)(abort|warn)?$', 'ABORT'));
    assert.ok(matches('^(?i)(abort|warn)?$', 'Warn'));
    assert.ok(!matches('^(?i)(abort|warn)?$', 'fail'));
    const weekday = '^((?i)sun|mon|tues|wednes|thurs|fri|satur)day(?:((:(sun|mon|tues|wednes|thurs|fri|satur)day)$)|$)';
    assert.ok(matches(weekday, 'SUNday'));
    assert.ok(matches(weekday, 'monday:friday'));
    assert.ok(!matches(weekday, 'monday:FRIday'), 'the flag ends with its group');
  });

  it('accepts escaped punctuation, scoped flags and Go-style named groups', () => {
    assert.ok(matches('^[a-z\\-\\.]+\\-\\d$', 'a.b-1'));
    assert.ok(matches('^(?i:ab)c$', 'ABc'));
    assert.ok(!matches('^(?i:ab)c$', 'ABC'));
    assert.ok(matches('^(?P<key>[a-z]+)=\\z', 'k='));
  });

  it('refuses, when the CRD is written, what RE2 refuses, in Go words', () => {
    const problems = (pattern: string) =>
      validateStructuralSchema({ type: 'object', properties: { a: { type: 'string', pattern } } } as JSONSchemaProps, 's').map(
        (c) => c.message,
      );
    assert.deepEqual(problems('^(?=a)b$'), [
      'Invalid value: "^(?=a)b$": must be a valid regular expression, but isn\'t: error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    ]);
    assert.deepEqual(problems('(a)\\1'), [
      'Invalid value: "(a)\\\\1": must be a valid regular expression, but isn\'t: error parsing regexp: invalid escape sequence: `\\1`',
    ]);
    assert.deepEqual(problems('^[a-z]+$'), []);
  });
});

describe('embedded resources', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          templates: {
            type: 'array',
            items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          },
        },
      },
    },
  } as JSONSchemaProps;
  const causes = (spec: unknown) =>
    validateCustomResource({ apiVersion: 'x.dev/v1', kind: 'X', metadata: { name: 'x' }, spec }, schema).causes.map(
      (c) => `${c.field}: ${c.message}`,
    );

  it('require apiVersion and kind', () => {
    assert.deepEqual(causes({ template: { spec: {} } }), [
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
    ]);
  });

  it('check apiVersion, kind and metadata as kube does, in lists too', () => {
    const bad = { apiVersion: 'a/b/c', kind: 'Bad_Kind', metadata: { name: 'a/b', labels: { 'not valid!': 'x' } } };
    assert.deepEqual(causes({ templates: [{ apiVersion: 'v1', kind: 'ConfigMap' }, bad] }), [
      'spec.templates[1].apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "spec.templates[1].kind: Invalid value: \"Bad_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      'spec.templates[1].metadata.name: Invalid value: "a/b": may not contain \'/\'',
      "spec.templates[1].metadata.labels: Invalid value: \"not valid!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });

  it('refuse metadata that does not decode as ObjectMeta', () => {
    assert.deepEqual(causes({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: 'x' } } }), [
      'spec.template.metadata: Invalid value: {"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
    ]);
  });
});
