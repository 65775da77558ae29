/**
 * A definition's `conversion`: checked when the resource is defined, against the rules kube-apiserver
 * applies to a CRD's `spec.conversion` (a webhook reached through exactly one of a Service or an
 * `https://` URL, a Service path of DNS-subdomain segments, a port in range, known and distinct
 * ConversionReview versions), and written out as the API server stores it. Invariant: a definition
 * that passes the check gives a `spec.conversion` the API server accepts unchanged.
 */
import type { CustomResourceConversion } from 'kubernetes-types/apiextensions/v1.js';
import type { ConversionDefinition } from './types.js';
import { SchemaNotStructuralError } from './errors.js';

const REVIEW_VERSIONS: readonly string[] = ['v1', 'v1beta1'];
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const fail = (path: string, reason: string): never => {
  throw new SchemaNotStructuralError(path, reason);
};

/** Throws `SchemaNotStructuralError` at the first part of `c` the API server would refuse. */
export function checkConversion(c: ConversionDefinition): void {
  // Read loosely: a JavaScript caller (or a cast) can hand in any shape, and each gets its own reason.
  const loose = c as { strategy?: unknown; service?: unknown; url?: unknown; conversionReviewVersions?: unknown };
  if (loose.strategy === 'None') {
    const extra = ['service', 'url', 'conversionReviewVersions'].filter((k) => (loose as Record<string, unknown>)[k] !== undefined);
    if (extra.length > 0) fail('conversion', `strategy None takes no webhook, but ${extra.join(', ')} is set; use strategy Webhook`);
    return;
  }
  if (loose.strategy !== 'Webhook') fail('conversion.strategy', `must be None or Webhook, got ${JSON.stringify(loose.strategy)}`);
  if ((loose.service === undefined) === (loose.url === undefined)) {
    fail('conversion', 'a Webhook conversion needs exactly one of service and url');
  }
  if (loose.service !== undefined) checkService(loose.service);
  else checkUrl(loose.url);
  checkReviewVersions(loose.conversionReviewVersions);
}

function checkService(value: unknown): void {
  if (typeof value !== 'object' || value === null) fail('conversion.service', 'must be an object with namespace and name');
  const service = value as Record<string, unknown>;
  for (const key of ['namespace', 'name'] as const) {
    if (typeof service[key] !== 'string' || service[key] === '') fail(`conversion.service.${key}`, 'is required');
  }
  const port = service.port;
  if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)) {
    fail('conversion.service.port', `must be an integer from 1 to 65535, got ${JSON.stringify(port)}`);
  }
  const path = service.path;
  if (path === undefined || path === '/') return;
  if (typeof path !== 'string' || !path.startsWith('/'))
    fail('conversion.service.path', `must start with '/', got ${JSON.stringify(path)}`);
  const segments = (path as string).slice(1).replace(/\/$/, '').split('/');
  segments.forEach((segment, i) => {
    if (!DNS_SUBDOMAIN.test(segment)) {
      fail(
        'conversion.service.path',
        `segment ${i} (${JSON.stringify(segment)}) must be a lower-case DNS subdomain, as the API server requires`,
      );
    }
  });
}

function checkUrl(value: unknown): void {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    return fail('conversion.url', `must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:')
    fail('conversion.url', `'https' is the only scheme the API server calls, got ${url.protocol.slice(0, -1)}`);
  if (url.username !== '' || url.password !== '') fail('conversion.url', 'must not carry a user or password');
  if (url.search !== '' || url.hash !== '') fail('conversion.url', 'must not have a query or a fragment');
}

function checkReviewVersions(value: unknown): void {
  if (!Array.isArray(value) || value.length === 0) {
    fail('conversion.conversionReviewVersions', `must list at least one of ${REVIEW_VERSIONS.join(', ')}`);
  }
  const seen = new Set<unknown>();
  (value as unknown[]).forEach((v, i) => {
    if (!REVIEW_VERSIONS.includes(v as string))
      fail(`conversion.conversionReviewVersions[${i}]`, `must be ${REVIEW_VERSIONS.join(' or ')}, got ${JSON.stringify(v)}`);
    if (seen.has(v)) fail(`conversion.conversionReviewVersions[${i}]`, `${String(v)} is listed twice`);
    seen.add(v);
  });
}

/**
 * `spec.conversion` as the API server stores it: a Service's port written out as its default 443,
 * so the file reads the same as the object read back.
 */
export function buildConversion(c: ConversionDefinition): CustomResourceConversion {
  if (c.strategy === 'None') return { strategy: 'None' };
  const clientConfig =
    c.service !== undefined
      ? {
          service: {
            namespace: c.service.namespace,
            name: c.service.name,
            ...(c.service.path !== undefined ? { path: c.service.path } : {}),
            port: c.service.port ?? 443,
          },
        }
      : { url: c.url };
  return { strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: [...c.conversionReviewVersions] } };
}
