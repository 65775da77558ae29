import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { initialMemory, transition, type ReflectorInput, type ReflectorMemory, type ReflectorState } from 'kube-converge/cache';

describe('reflector state machine: resourceVersion choices', () => {
  type S = ReflectorState<'stream'>;
  const run = (inputs: ReflectorInput<'stream'>[], watchList = false) => {
    let s: S = { kind: 'idle' };
    let m: ReflectorMemory = initialMemory(watchList);
    const trace: string[] = [];
    for (const input of inputs) {
      [s, m] = transition(s, input, m);
      trace.push('resourceVersion' in s ? `${s.kind}(${JSON.stringify(s.resourceVersion)})` : s.kind === 'backoff' ? `backoff→${s.then}` : s.kind);
    }
    return trace;
  };
  const failed = (failure: 'expired' | 'tooManyRequests' | 'other' | 'rejected' | 'connectionRefused', resourceVersion?: string): ReflectorInput<'stream'> =>
    resourceVersion === undefined ? { kind: 'failed', failure, retryAfterMs: 0 } : { kind: 'failed', failure, retryAfterMs: 0, resourceVersion };

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
      ['listing("0")', 'watching("10")', 'watching("15")', 'backoff→relist', 'listing("17")', 'listing("")', 'watching("40")', 'backoff→watch', 'watching("41")', 'stopped'],
    );
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
      ['streaming("")', 'watching("10")', 'backoff→relist', 'streaming("12")', 'listing("12")', 'watching("20")', 'backoff→relist', 'streaming("21")', 'listing("21")'],
    );
  });
});
