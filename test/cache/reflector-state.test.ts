// The reflector's pure state machine, tested on its own (from its private file: the machine is an
// internal of Reflector, not part of the cache layer's face): resourceVersion choices and failure handling.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WatchInterruptedError } from 'kube-converge/cache';
import {
  classifyFailure,
  initialMemory,
  transition,
  type FailureKind,
  type ReflectorInput,
  type ReflectorMemory,
  type ReflectorState,
} from '../../src/cache/reflector-state.js';
import { NetworkError } from 'kube-converge/client';

describe('reflector state machine: resourceVersion choices', () => {
  type S = ReflectorState<'stream'>;
  const run = (inputs: ReflectorInput<'stream'>[], watchList = false) => {
    let s: S = { kind: 'idle' };
    let m: ReflectorMemory = initialMemory(watchList);
    const trace: string[] = [];
    for (const input of inputs) {
      [s, m] = transition(s, input, m);
      trace.push(
        'resourceVersion' in s ? `${s.kind}(${JSON.stringify(s.resourceVersion)})` : s.kind === 'backoff' ? `backoff→${s.then}` : s.kind,
      );
    }
    return trace;
  };
  const failed = (failure: FailureKind, resourceVersion?: string, established = false): ReflectorInput<'stream'> =>
    resourceVersion === undefined
      ? { kind: 'failed', failure, retryAfterMs: 0 }
      : { kind: 'failed', failure, retryAfterMs: 0, resourceVersion, established };

  it('lists from "0", watches from the list RV, re-watches after a clean close, relists from the last RV after a watch 410 and from "" after a list 410', () => {
    assert.deepEqual(
      run([
        { kind: 'start' },
        { kind: 'listed', resourceVersion: '10', paginated: false },
        { kind: 'watchEnded', resourceVersion: '15' },
        failed('expired', '17'),
        { kind: 'waited' },
        failed('expired'),
        { kind: 'listed', resourceVersion: '40', paginated: false },
        failed('tooManyRequests', '41'),
        { kind: 'waited' },
        { kind: 'stop' },
      ]),
      [
        'listing("0")',
        'watching("10")',
        'watching("15")',
        'backoff→relist',
        'listing("17")',
        'listing("")',
        'watching("40")',
        'backoff→watch',
        'watching("41")',
        'stopped',
      ],
    );
  });

  it('resumes a watch cut after it was established at once from its last RV; backs off and watches again, never relisting, while one cannot be established', () => {
    assert.deepEqual(
      run([
        { kind: 'start' },
        { kind: 'listed', resourceVersion: '10', paginated: false },
        failed('disconnected', '12', true),
        failed('disconnected', '13', true),
        failed('connectionRefused'),
        { kind: 'waited' },
        failed('disconnected', '13', false),
        { kind: 'waited' },
        failed('disconnected'),
        { kind: 'waited' },
        failed('disconnected', '20', true),
      ]),
      [
        'listing("0")',
        'watching("10")',
        'watching("12")',
        'watching("13")',
        'backoff→watch',
        'watching("13")',
        'backoff→watch',
        'watching("13")',
        'backoff→watch',
        'watching("13")',
        'watching("20")',
      ],
    );
  });

  it('a cut during a list or a streaming list is no watch to resume: the list backs off, the stream falls back to a list', () => {
    assert.deepEqual(run([{ kind: 'start' }, failed('disconnected')]), ['listing("0")', 'backoff→relist']);
    assert.deepEqual(run([{ kind: 'start' }, failed('disconnected')], true), ['streaming("")', 'listing("0")']);
  });

  it('streams from "" at first and from the last RV later, falls back to a list on failure, and stops streaming when rejected', () => {
    assert.deepEqual(
      run(
        [
          { kind: 'start' },
          { kind: 'streamed', resourceVersion: '10', stream: 'stream' },
          failed('other', '12'),
          { kind: 'waited' },
          failed('other'),
          { kind: 'listed', resourceVersion: '20', paginated: false },
          failed('other', '21'),
          { kind: 'waited' },
          failed('rejected'),
        ],
        true,
      ),
      [
        'streaming("")',
        'watching("10")',
        'backoff→relist',
        'streaming("12")',
        'listing("12")',
        'watching("20")',
        'backoff→relist',
        'streaming("21")',
        'listing("21")',
      ],
    );
  });
});

describe('classifyFailure', () => {
  const status = (code: number, reason: string, extra: Record<string, unknown> = {}) => ({ kind: 'Status', code, reason, ...extra });
  it('maps API and network failures to what the state machine needs and how they are counted', () => {
    assert.deepEqual(classifyFailure(status(410, 'Expired')), { failure: 'expired', reason: 'gone', retryAfterMs: 0 });
    assert.deepEqual(classifyFailure(status(429, 'TooManyRequests', { details: { retryAfterSeconds: 3 } })), {
      failure: 'tooManyRequests',
      reason: 'tooManyRequests',
      retryAfterMs: 3000,
    });
    assert.deepEqual(classifyFailure(status(504, 'Timeout', { message: 'Too large resource version: 99, current: 10' })), {
      failure: 'expired',
      reason: 'other',
      retryAfterMs: 0,
    });
    assert.equal(classifyFailure(status(422, 'Invalid')).failure, 'rejected');
    assert.equal(classifyFailure(status(500, 'InternalError')).failure, 'other');
    const refused = new NetworkError('GET', '/x', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    assert.deepEqual(classifyFailure(refused), { failure: 'connectionRefused', reason: 'network', retryAfterMs: 0 });
    assert.deepEqual(classifyFailure(new NetworkError('GET', '/x', new Error('reset'))), {
      failure: 'disconnected',
      reason: 'network',
      retryAfterMs: 0,
    });
    const silent = new NetworkError('GET', '/x', new Error('no data for 660000 ms (inactivity timeout 660000 ms)'));
    assert.deepEqual(classifyFailure(silent), { failure: 'disconnected', reason: 'network', retryAfterMs: 0 });
    assert.deepEqual(classifyFailure(new WatchInterruptedError('tooShort', 'closed at once')), {
      failure: 'other',
      reason: 'other',
      retryAfterMs: 0,
    });
    assert.deepEqual(classifyFailure(new Error('boom')), { failure: 'other', reason: 'other', retryAfterMs: 0 });
  });
});
