// Imports the webhook layer's private paths and admission handler, served in-process.
// Admission webhooks in-process: a defaulter's changes answered as a JSON patch, validators'
// warnings and denials, dry runs, throws answered 500 with the UID logged, and bad requests refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from 'kube-converge/meta';
import {
  WebhookServer,
  defaultingHandler,
  deny,
  validatingHandler,
  type AdmissionReview,
  type AdmissionHandler,
} from 'kube-converge/webhook';
import { AppV1, app, recordingLogger, review } from './helpers.js';
import { mutatePath, validatePath } from '../../src/webhook/paths.js';
import { serveAdmission } from '../../src/webhook/admission-handler.js';

const signal = new AbortController().signal;
const serve = (body: unknown, handler: AdmissionHandler, logger = recordingLogger()) => serveAdmission(body, handler, { logger, signal });
const patchOf = (r: AdmissionReview): unknown => JSON.parse(Buffer.from(r.response!.patch!, 'base64').toString('utf8'));

describe('defaulting webhook', () => {
  const defaults = defaultingHandler(AppV1, (obj) => {
    obj.spec.replicas ??= 1;
  });

  it("answers a defaulter's change as a base64 JSON patch of just that change", async () => {
    const out = await serve(review('CREATE', { object: app({ image: 'nginx:1' }) }), defaults);
    assert.equal(out.response!.uid, 'req-1');
    assert.equal(out.response!.allowed, true);
    assert.equal(out.response!.patchType, 'JSONPatch');
    assert.deepEqual(patchOf(out), [{ op: 'add', path: '/spec/replicas', value: 1 }]);
  });

  it('answers allowed without a patch when the defaulter changes nothing', async () => {
    const out = await serve(
      review('UPDATE', { object: app({ image: 'nginx:1', replicas: 3 }), oldObject: app({ image: 'nginx:1' }) }),
      defaults,
    );
    assert.equal(out.response!.allowed, true);
    assert.equal(out.response!.patch, undefined);
    assert.equal(out.response!.patchType, undefined);
  });

  it('allows a DELETE untouched, without calling the defaulter', async () => {
    let calls = 0;
    const h = defaultingHandler(AppV1, () => void calls++);
    const out = await serve(review('DELETE', { oldObject: app({ image: 'nginx:1' }) }), h);
    assert.equal(out.response!.allowed, true);
    assert.equal(calls, 0);
  });

  it("answers 500 for a defaulter that throws, and logs the error with the request's UID", async () => {
    const logger = recordingLogger();
    const h = defaultingHandler(AppV1, () => {
      throw new Error('boom');
    });
    const out = await serve(review('CREATE', { object: app({ image: 'nginx:1' }) }, { uid: 'uid-42' }), h, logger);
    assert.equal(out.response!.allowed, false);
    assert.equal(out.response!.uid, 'uid-42');
    assert.equal(out.response!.status?.code, 500);
    assert.match(out.response!.status?.message ?? '', /boom/);
    const line = logger.lines.find((l) => l.level === 'error');
    assert.equal(line?.msg, 'admission webhook failed');
    assert.equal(line?.fields.uid, 'uid-42');
  });

  it('refuses with 400 an object of another kind than the one registered', async () => {
    const other = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
    const out = await serve(review('CREATE', { object: other }), defaults);
    assert.equal(out.response!.allowed, false);
    assert.equal(out.response!.status?.code, 400);
    assert.match(out.response!.status?.message ?? '', /ConfigMap.*serves test\.converge\.dev\/v1, Kind=App/);
  });

  it("wraps the response in a review of the request's own apiVersion (v1beta1 too)", async () => {
    const out = await serve(review('CREATE', { object: app({ image: 'nginx:1' }) }, { apiVersion: 'admission.k8s.io/v1beta1' }), defaults);
    assert.equal(out.apiVersion, 'admission.k8s.io/v1beta1');
    assert.equal(out.kind, 'AdmissionReview');
  });
});

describe('validating webhook', () => {
  const validator = validatingHandler(AppV1, {
    create: (obj) => (obj.spec.image.includes(':') ? { warnings: ['image is not pinned by digest'] } : deny('spec.image needs a tag')),
    update: (oldObj, newObj) =>
      newObj.spec.image === oldObj.spec.image
        ? undefined
        : deny('the image may not change', {
            causes: [{ reason: 'FieldValueForbidden', field: 'spec.image', message: 'the image may not change' }],
            warnings: ['w1'],
          }),
    delete: (obj, ctx) => (ctx.dryRun ? { warnings: [`dry run delete of ${obj.metadata!.name}`] } : undefined),
  });

  it("passes a validator's warnings on with an allowed response", async () => {
    const out = await serve(review('CREATE', { object: app({ image: 'nginx:1' }) }), validator);
    assert.equal(out.response!.allowed, true);
    assert.deepEqual(out.response!.warnings, ['image is not pinned by digest']);
  });

  it('answers a denial without causes as 403 Forbidden with its message', async () => {
    const out = await serve(review('CREATE', { object: app({ image: 'nginx' }) }), validator);
    assert.equal(out.response!.allowed, false);
    assert.deepEqual(out.response!.status, {
      metadata: {},
      status: 'Failure',
      code: 403,
      reason: 'Forbidden',
      message: 'spec.image needs a tag',
    } satisfies Status);
  });

  it('answers a denial with causes as 422 Invalid with details.causes, and keeps its warnings', async () => {
    const out = await serve(review('UPDATE', { oldObject: app({ image: 'nginx:1' }), object: app({ image: 'nginx:2' }) }), validator);
    assert.equal(out.response!.allowed, false);
    assert.equal(out.response!.status?.code, 422);
    assert.equal(out.response!.status?.reason, 'Invalid');
    assert.deepEqual(out.response!.status?.details?.causes, [
      { reason: 'FieldValueForbidden', field: 'spec.image', message: 'the image may not change' },
    ]);
    assert.deepEqual(out.response!.warnings, ['w1']);
  });

  it('gives update the old and the new object, and delete the old object', async () => {
    const same = await serve(
      review('UPDATE', { oldObject: app({ image: 'nginx:1' }), object: app({ image: 'nginx:1', replicas: 2 }) }),
      validator,
    );
    assert.equal(same.response!.allowed, true);
    const del = await serve(review('DELETE', { oldObject: app({ image: 'nginx:1' }) }, { dryRun: true }), validator);
    assert.deepEqual(del.response!.warnings, ['dry run delete of shop']);
  });

  it('tells the validator about a dry run', async () => {
    const seen: boolean[] = [];
    const h = validatingHandler(AppV1, { create: (_o, ctx) => void seen.push(ctx.dryRun) });
    await serve(review('CREATE', { object: app({ image: 'a:1' }) }, { dryRun: true }), h);
    await serve(review('CREATE', { object: app({ image: 'a:1' }) }), h);
    assert.deepEqual(seen, [true, false]);
  });

  it('allows an operation the validator has no function for', async () => {
    const h = validatingHandler(AppV1, { create: () => deny('no') });
    const out = await serve(review('DELETE', { oldObject: app({ image: 'a:1' }) }), h);
    assert.equal(out.response!.allowed, true);
  });

  it('answers 500 for a validator that rejects, with the UID logged', async () => {
    const logger = recordingLogger();
    const h = validatingHandler(AppV1, {
      create: () => Promise.reject(new TypeError('cannot read spec')),
    });
    const out = await serve(review('CREATE', { object: app({ image: 'a:1' }) }, { uid: 'u-7' }), h, logger);
    assert.equal(out.response!.status?.code, 500);
    assert.equal(logger.lines.find((l) => l.level === 'error')?.fields.uid, 'u-7');
  });

  it('answers 400 to a body that is not an AdmissionReview with a request', async () => {
    const out = await serve({ kind: 'Nope' }, validator);
    assert.equal(out.response!.allowed, false);
    assert.equal(out.response!.status?.code, 400);
  });
});

describe('webhook server request handling', () => {
  const server = new WebhookServer({ port: 0 });
  server.registerAdmission(
    {
      type: 'mutating',
      path: mutatePath(AppV1),
      group: AppV1.group,
      version: 'v1',
      plural: 'apps',
      namespaced: true,
      operations: ['CREATE'],
      sideEffects: 'None',
    },
    defaultingHandler(AppV1, (o) => {
      o.spec.replicas = 2;
    }),
  );
  const post = (path: string, body: string, contentType = 'application/json') => server.handle({ method: 'POST', path, contentType, body });

  it('serves a registered webhook at its controller-runtime path', async () => {
    assert.equal(mutatePath(AppV1), '/mutate-test-converge-dev-v1-app');
    assert.equal(validatePath(AppV1), '/validate-test-converge-dev-v1-app');
    const out = await post(mutatePath(AppV1), JSON.stringify(review('CREATE', { object: app({ image: 'a:1' }) })));
    assert.equal(out.status, 200);
    assert.equal(out.contentType, 'application/json');
    assert.equal((JSON.parse(out.body) as AdmissionReview).response!.allowed, true);
  });

  it('refuses an unknown path (404), a GET (405), another content type and a body that is not JSON (400)', async () => {
    assert.equal((await post('/nope', '{}')).status, 404);
    assert.equal((await server.handle({ method: 'GET', path: mutatePath(AppV1), body: '' })).status, 405);
    const ct = await post(mutatePath(AppV1), '{}', 'text/plain');
    assert.equal(ct.status, 400);
    assert.match(ct.body, /expected application\/json/);
    const bad = await post(mutatePath(AppV1), '{"kind":');
    assert.equal(bad.status, 400);
    assert.match(bad.body, /not JSON/);
  });

  it('refuses a second webhook at the same path', () => {
    assert.throws(
      () =>
        server.registerAdmission(
          {
            type: 'mutating',
            path: mutatePath(AppV1),
            group: '',
            version: 'v1',
            plural: 'apps',
            namespaced: true,
            operations: [],
            sideEffects: 'None',
          },
          async (r) => ({ uid: r.uid, allowed: true }),
        ),
      { code: 'CONVERGE_INVALID_OPTION' },
    );
  });
});
