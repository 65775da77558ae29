/**
 * Field numbers of the `networking.k8s.io/v1` Ingress messages, from
 * `k8s.io/api/networking/v1/generated.proto`, with the JSON names and zero-value rules of the Go
 * types (notation: `message-schema.ts`).
 */
import type { MessageTable } from './message-schema.js';

export const NETWORKING_MESSAGES: MessageTable = {
  Ingress: { 1: 'metadata ObjectMeta', 2: 'spec IngressSpec', 3: 'status IngressStatus' },
  IngressSpec: { 4: 'ingressClassName string*', 1: 'defaultBackend IngressBackend', 2: 'tls []IngressTLS', 3: 'rules []IngressRule' },
  IngressBackend: { 4: 'service IngressServiceBackend', 3: 'resource TypedLocalObjectReference' },
  IngressServiceBackend: { 1: 'name string*', 2: 'port ServiceBackendPort' },
  ServiceBackendPort: { 1: 'name string', 2: 'number int32' },
  TypedLocalObjectReference: { 1: 'apiGroup string*', 2: 'kind string*', 3: 'name string*' },
  IngressTLS: { 1: 'hosts []string', 2: 'secretName string' },
  IngressRule: { 1: 'host string', 2: '... IngressRuleValue' },
  IngressRuleValue: { 1: 'http HTTPIngressRuleValue' },
  HTTPIngressRuleValue: { 1: 'paths []HTTPIngressPath' },
  HTTPIngressPath: { 1: 'path string', 3: 'pathType string*', 2: 'backend IngressBackend' },
  IngressStatus: { 1: 'loadBalancer IngressLoadBalancerStatus' },
  IngressLoadBalancerStatus: { 1: 'ingress []IngressLoadBalancerIngress' },
  IngressLoadBalancerIngress: { 1: 'ip string', 2: 'hostname string', 4: 'ports []IngressPortStatus' },
  IngressPortStatus: { 1: 'port int32*', 2: 'protocol string*', 3: 'error string*' },
};
