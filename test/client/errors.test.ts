// Imports the client's private Status decoding of error bodies, tested on bodies no server sends.
// Typed API errors: the server's Status kept on StatusError, a Status built from other bodies, the
// is*/ignore* helpers, and NetworkError's message. `statusErrorFromResponse` comes from its private
// file: it is how the client turns a response into an error, not something callers use.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConvergeError, type Status } from 'kube-converge/meta';
import {
  StatusError,
  NetworkError,
  isNotFound,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isGone,
  isResourceExpired,
  isTooManyRequests,
  isForbidden,
  isUnauthorized,
  isServerTimeout,
  isTimeout,
  ignoreNotFound,
  ignoreAlreadyExists,
} from 'kube-converge/client';
import { statusErrorFromResponse } from '../../src/client/errors.js';
import { statusOf } from '../../src/client/errors.js';

const status = (code: number, reason: string, extra: Partial<Status> = {}): Status => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  code,
  reason,
  message: `${reason} happened`,
  ...extra,
});

describe('typed API errors', () => {
  it('keeps the server Status (reason, code, details, causes) on the StatusError', () => {
    const body = status(422, 'Invalid', {
      details: { name: 'x', kind: 'ConfigMap', causes: [{ reason: 'FieldValueRequired', field: 'data', message: 'Required value' }] },
    });
    const err = statusErrorFromResponse(422, JSON.stringify(body));
    assert.ok(err instanceof StatusError && ConvergeError.is(err));
    assert.equal(err.code, 'CONVERGE_API_STATUS');
    assert.deepEqual(err.status, body);
    assert.equal(err.message, '422 Invalid: Invalid happened');
    assert.ok(isInvalid(err));
  });

  it('builds a Status from a non-Status body, with the reason the HTTP code implies', () => {
    for (const [code, check] of [
      [404, isNotFound],
      [409, isConflict],
      [410, isGone],
      [429, isTooManyRequests],
      [403, isForbidden],
      [401, isUnauthorized],
      [504, isTimeout],
      [422, isInvalid],
    ] as const) {
      const err = statusErrorFromResponse(code, 'plain text body\n');
      assert.equal(err.status.code, code);
      assert.ok(check(err), `${code} → ${err.status.reason}`);
      assert.match(err.status.message ?? '', /plain text body/);
    }
    const withRetry = statusErrorFromResponse(429, '', 7);
    assert.equal(withRetry.status.details?.retryAfterSeconds, 7);
    assert.equal(statusErrorFromResponse(418, '<html>').status.reason, '');
  });

  it('fills in the HTTP code when a Status body omits it', () => {
    const err = statusErrorFromResponse(
      409,
      JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'AlreadyExists' }),
    );
    assert.equal(err.status.code, 409);
    assert.ok(isAlreadyExists(err));
    assert.ok(!isConflict(err), 'AlreadyExists is not Conflict although both are 409');
  });

  it('answers the helpers for a bare Status (a watch ERROR object) as for a StatusError', () => {
    const expired = status(410, 'Expired');
    assert.ok(isGone(expired) && isResourceExpired(expired));
    assert.ok(isGone(status(410, 'Gone')) && isResourceExpired(status(410, 'Gone')));
    assert.ok(isServerTimeout(status(500, 'ServerTimeout')));
    assert.equal(statusOf(expired), expired);
    assert.equal(statusOf(new StatusError(expired)), expired);
    assert.equal(statusOf(new Error('x')), undefined);
    assert.ok(!isNotFound(new Error('404 NotFound')), 'never judged from message text');
    assert.ok(!isNotFound(undefined) && !isGone(null));
  });

  it('ignoreNotFound and ignoreAlreadyExists swallow only their own reason and rethrow everything else unchanged', async () => {
    const notFound = new StatusError(status(404, 'NotFound'));
    const exists = new StatusError(status(409, 'AlreadyExists'));
    const conflict = new StatusError(status(409, 'Conflict'));
    assert.equal(await Promise.reject(notFound).catch(ignoreNotFound), undefined);
    assert.equal(await Promise.reject(exists).catch(ignoreAlreadyExists), undefined);
    await assert.rejects(Promise.reject(exists).catch(ignoreNotFound), (e) => e === exists);
    await assert.rejects(Promise.reject(conflict).catch(ignoreAlreadyExists), (e) => e === conflict);
    const plain = new Error('socket hang up');
    assert.throws(
      () => ignoreNotFound(plain),
      (e) => e === plain,
    );
  });

  it('names method, URL and cause in a NetworkError', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const err = new NetworkError('GET', 'http://127.0.0.1:1/api', cause);
    assert.equal(err.code, 'CONVERGE_NETWORK');
    assert.equal(err.message, 'GET http://127.0.0.1:1/api: connect ECONNREFUSED 127.0.0.1:1');
    assert.equal(err.cause, cause);
    const bare = new NetworkError('PUT', 'http://h/x', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    assert.equal(bare.message, 'PUT http://h/x: ECONNRESET socket hang up');
  });
});
