/**
 * The demo's sample objects: two WebApps (one reading a ConfigMap) and an ApplicationRoute whose
 * backend is the `shop` Service — which does not exist yet when the route is applied: the WebApp
 * operator creates it a moment later, and the route converges on that event.
 */
import { ConfigMapResource, type ObjectOf } from 'kube-converge/meta';
import { WebApp } from '../webapp/types.js';
import { ApplicationRoute } from '../application-route/types.js';

export const NAMESPACE = 'default';

export const shopConfig: ObjectOf<typeof ConfigMapResource> = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'shop-config', namespace: NAMESPACE },
  data: { GREETING: 'hello', CURRENCY: 'EUR' },
};

export const webApps: ObjectOf<typeof WebApp>[] = [
  {
    apiVersion: WebApp.apiVersion,
    kind: WebApp.kind,
    metadata: { name: 'shop', namespace: NAMESPACE },
    spec: { image: 'ghcr.io/acme/shop:1.4.2', replicas: 3, configRef: 'shop-config' },
  },
  {
    apiVersion: WebApp.apiVersion,
    kind: WebApp.kind,
    metadata: { name: 'blog', namespace: NAMESPACE },
    spec: { image: 'ghcr.io/acme/blog:2.0.0', replicas: 2 },
  },
];

export const storefront: ObjectOf<typeof ApplicationRoute> = {
  apiVersion: ApplicationRoute.apiVersion,
  kind: ApplicationRoute.kind,
  metadata: { name: 'storefront', namespace: NAMESPACE },
  spec: { hostnames: ['shop.example.com'], backends: [{ service: 'shop', port: 80, weight: 100 }], timeout: '10s' },
};
