// Qualified names, label values and DNS-1123 subdomains, validated as the API server does, with a
// reason for each failure.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { qualifiedNameErrors, labelValueErrors, dns1123SubdomainErrors } from 'kube-converge/meta';

describe('label key and value validation', () => {
  it('accepts qualified names with and without a DNS prefix', () => {
    for (const ok of ['app', 'App_1.x-y', 'example.com/tier', 'a.b-c.d/Z', `${'a'.repeat(253)}/${'n'.repeat(63)}`]) {
      assert.deepEqual(qualifiedNameErrors(ok), [], ok);
    }
  });

  it('explains each way a qualified name can be wrong', () => {
    assert.deepEqual(qualifiedNameErrors(''), [
      'name part must be non-empty',
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
        "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    assert.deepEqual(qualifiedNameErrors('n'.repeat(64)), ['name part must be no more than 63 characters']);
    assert.match(qualifiedNameErrors('/a')[0]!, /^prefix part must be non-empty$/);
    assert.match(qualifiedNameErrors('Example.com/a')[0]!, /^prefix part a lowercase RFC 1123 subdomain must consist of/);
    assert.match(qualifiedNameErrors(`${'a'.repeat(254)}/n`)[0]!, /^prefix part must be no more than 253 characters$/);
    assert.match(qualifiedNameErrors('a/b/c')[0]!, /with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
    assert.equal(qualifiedNameErrors('-a').length, 1);
    assert.equal(qualifiedNameErrors('a_').length, 1);
  });

  it('accepts empty and well-formed label values and rejects the rest', () => {
    for (const ok of ['', 'a', 'v1.2-rc_3', 'x'.repeat(63)]) assert.deepEqual(labelValueErrors(ok), [], ok);
    assert.deepEqual(labelValueErrors('x'.repeat(64)), ['must be no more than 63 characters']);
    for (const bad of ['-a', 'a-', 'a b', 'a/b', 'é'])
      assert.match(labelValueErrors(bad)[0]!, /^a valid label must be an empty string/, bad);
  });

  it('checks DNS-1123 subdomains', () => {
    assert.deepEqual(dns1123SubdomainErrors('example.com'), []);
    assert.equal(dns1123SubdomainErrors('Example.com').length, 1);
    assert.equal(dns1123SubdomainErrors('a..b').length, 1);
    assert.equal(dns1123SubdomainErrors('').length, 1);
  });
});
