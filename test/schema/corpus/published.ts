// The published side of the corpus comparison read from a kind's @kubernetes-models package: its
// validator for the kind (a function of the object, true when the published schema accepts it;
// compiled ahead of time for cert-manager and Prometheus-operator, which ship no schema value) and
// the module its TypeScript declarations live in. Both are read from the installed packages at run
// time; nothing of them is copied into this repository.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface PublishedKind {
  /** The declarations' module and interface, as an import would name them. */
  declarations: { specifier: string; name: string };
  /** The package's compiled validator of the whole object. */
  validate(obj: unknown): boolean;
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

type Validate = (obj: unknown) => boolean;

export function certManagerCertificate(): PublishedKind {
  const file = join(packageDir('@kubernetes-models/cert-manager'), '_schemas/CertManagerIoV1Certificate.js');
  const { validate } = require(file) as { validate: Validate };
  return { declarations: { specifier: '@kubernetes-models/cert-manager/cert-manager.io/v1/Certificate', name: 'ICertificate' }, validate };
}

export async function prometheusServiceMonitor(): Promise<PublishedKind> {
  const file = join(
    packageDir('@kubernetes-models/prometheus-operator'),
    '_schemas/ComGithubPrometheusOperatorPrometheusOperatorPkgApisMonitoringV1ServiceMonitor.js',
  );
  const { validate } = (await import(pathToFileURL(file).href)) as { validate: Validate };
  return {
    declarations: { specifier: '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor', name: 'IServiceMonitor' },
    validate,
  };
}

export function gatewayApiHttpRoute(): PublishedKind {
  const { HTTPRoute } = require('@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute') as {
    HTTPRoute: new (obj: unknown) => { validate(): void };
  };
  const validate = (obj: unknown): boolean => {
    try {
      new HTTPRoute(obj).validate();
      return true;
    } catch (e) {
      // The package's validation error is ajv's, carrying the list of failures; anything else is a bug to surface.
      if (!Array.isArray((e as { errors?: unknown }).errors)) throw e;
      return false;
    }
  };
  return {
    declarations: { specifier: '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute', name: 'IHTTPRoute' },
    validate,
  };
}
