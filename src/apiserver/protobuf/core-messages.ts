/**
 * Field numbers of the core `v1` messages behind the kinds typed clients create (Namespace,
 * ConfigMap, Secret, ServiceAccount, Service, Pod, Event) and of the pod template workloads embed,
 * from `k8s.io/api/core/v1/generated.proto`, with the JSON names and zero-value rules of the Go types
 * (notation: `message-schema.ts`). Deliberately partial: volume sources other than hostPath,
 * emptyDir, secret, configMap and persistentVolumeClaim, affinity, topology spread constraints,
 * ephemeral containers and container statuses are not modelled, so a body using them is refused
 * (415) rather than stored without them.
 */
import type { MessageTable } from './message-schema.js';

export const CORE_MESSAGES: MessageTable = {
  Namespace: { 1: 'metadata ObjectMeta', 2: 'spec NamespaceSpec', 3: 'status NamespaceStatus' },
  NamespaceSpec: { 1: 'finalizers []string' },
  NamespaceStatus: { 1: 'phase string', 2: 'conditions []NamespaceCondition' },
  NamespaceCondition: { 1: 'type string*', 2: 'status string*', 4: 'lastTransitionTime Time', 5: 'reason string', 6: 'message string' },

  ConfigMap: { 1: 'metadata ObjectMeta', 4: 'immutable bool*', 2: 'data map<string,string>', 3: 'binaryData map<string,bytes>' },
  Secret: { 1: 'metadata ObjectMeta', 5: 'immutable bool*', 2: 'data map<string,bytes>', 4: 'stringData map<string,string>', 3: 'type string' },

  ServiceAccount: {
    1: 'metadata ObjectMeta', 2: 'secrets []ObjectReference', 3: 'imagePullSecrets []LocalObjectReference', 4: 'automountServiceAccountToken bool*',
  },
  ObjectReference: {
    1: 'kind string', 2: 'namespace string', 3: 'name string', 4: 'uid string', 5: 'apiVersion string', 6: 'resourceVersion string', 7: 'fieldPath string',
  },
  LocalObjectReference: { 1: 'name string' },

  Service: { 1: 'metadata ObjectMeta', 2: 'spec ServiceSpec', 3: 'status ServiceStatus' },
  ServiceSpec: {
    1: 'ports []ServicePort', 2: 'selector map<string,string>', 3: 'clusterIP string', 18: 'clusterIPs []string', 4: 'type string',
    5: 'externalIPs []string', 7: 'sessionAffinity string', 8: 'loadBalancerIP string', 9: 'loadBalancerSourceRanges []string',
    10: 'externalName string', 11: 'externalTrafficPolicy string', 12: 'healthCheckNodePort int32', 13: 'publishNotReadyAddresses bool',
    14: 'sessionAffinityConfig SessionAffinityConfig', 19: 'ipFamilies []string', 17: 'ipFamilyPolicy string*',
    20: 'allocateLoadBalancerNodePorts bool*', 21: 'loadBalancerClass string*', 22: 'internalTrafficPolicy string*', 23: 'trafficDistribution string*',
  },
  ServicePort: { 1: 'name string', 2: 'protocol string', 6: 'appProtocol string*', 3: 'port int32*', 4: 'targetPort IntOrString', 5: 'nodePort int32' },
  SessionAffinityConfig: { 1: 'clientIP ClientIPConfig' },
  ClientIPConfig: { 1: 'timeoutSeconds int32*' },
  ServiceStatus: { 1: 'loadBalancer LoadBalancerStatus', 2: 'conditions []Condition' },
  LoadBalancerStatus: { 1: 'ingress []LoadBalancerIngress' },
  LoadBalancerIngress: { 1: 'ip string', 2: 'hostname string', 3: 'ipMode string*' },

  Pod: { 1: 'metadata ObjectMeta', 2: 'spec PodSpec', 3: 'status PodStatus' },
  PodTemplateSpec: { 1: 'metadata ObjectMeta', 2: 'spec PodSpec' },
  PodSpec: {
    1: 'volumes []Volume', 20: 'initContainers []Container', 2: 'containers []Container', 3: 'restartPolicy string',
    4: 'terminationGracePeriodSeconds int64*', 5: 'activeDeadlineSeconds int64*', 6: 'dnsPolicy string', 7: 'nodeSelector map<string,string>',
    8: 'serviceAccountName string', 9: 'serviceAccount string', 21: 'automountServiceAccountToken bool*', 10: 'nodeName string',
    11: 'hostNetwork bool', 12: 'hostPID bool', 13: 'hostIPC bool', 27: 'shareProcessNamespace bool*', 14: 'securityContext PodSecurityContext',
    15: 'imagePullSecrets []LocalObjectReference', 16: 'hostname string', 17: 'subdomain string', 19: 'schedulerName string',
    22: 'tolerations []Toleration', 23: 'hostAliases []HostAlias', 24: 'priorityClassName string', 25: 'priority int32*',
    26: 'dnsConfig PodDNSConfig', 28: 'readinessGates []PodReadinessGate', 29: 'runtimeClassName string*', 30: 'enableServiceLinks bool*',
    31: 'preemptionPolicy string*', 32: 'overhead map<string,Quantity>', 35: 'setHostnameAsFQDN bool*', 36: 'os PodOS', 37: 'hostUsers bool*',
    40: 'resources ResourceRequirements', 41: 'hostnameOverride string*',
  },
  PodStatus: {
    17: 'observedGeneration int64', 1: 'phase string', 2: 'conditions []PodCondition', 3: 'message string', 4: 'reason string',
    11: 'nominatedNodeName string', 5: 'hostIP string', 16: 'hostIPs []HostIP', 6: 'podIP string', 12: 'podIPs []PodIP', 7: 'startTime Time',
    9: 'qosClass string', 14: 'resize string',
  },
  PodCondition: {
    1: 'type string*', 7: 'observedGeneration int64', 2: 'status string*', 3: 'lastProbeTime Time', 4: 'lastTransitionTime Time', 5: 'reason string', 6: 'message string',
  },
  PodIP: { 1: 'ip string*' },
  HostIP: { 1: 'ip string*' },
  PodOS: { 1: 'name string*' },
  PodReadinessGate: { 1: 'conditionType string*' },
  Toleration: { 1: 'key string', 2: 'operator string', 3: 'value string', 4: 'effect string', 5: 'tolerationSeconds int64*' },
  HostAlias: { 1: 'ip string*', 2: 'hostnames []string' },
  PodDNSConfig: { 1: 'nameservers []string', 2: 'searches []string', 3: 'options []PodDNSConfigOption' },
  PodDNSConfigOption: { 1: 'name string', 2: 'value string*' },
  PodSecurityContext: {
    2: 'runAsUser int64*', 6: 'runAsGroup int64*', 3: 'runAsNonRoot bool*', 4: 'supplementalGroups []int64', 12: 'supplementalGroupsPolicy string*',
    5: 'fsGroup int64*', 7: 'sysctls []Sysctl', 9: 'fsGroupChangePolicy string*', 10: 'seccompProfile SeccompProfile', 13: 'seLinuxChangePolicy string*',
  },
  Sysctl: { 1: 'name string*', 2: 'value string*' },
  SeccompProfile: { 1: 'type string*', 2: 'localhostProfile string*' },

  Container: {
    1: 'name string*', 2: 'image string', 3: 'command []string', 4: 'args []string', 5: 'workingDir string', 6: 'ports []ContainerPort',
    19: 'envFrom []EnvFromSource', 7: 'env []EnvVar', 8: 'resources ResourceRequirements', 23: 'resizePolicy []ContainerResizePolicy',
    24: 'restartPolicy string*', 9: 'volumeMounts []VolumeMount', 10: 'livenessProbe Probe', 11: 'readinessProbe Probe', 22: 'startupProbe Probe',
    12: 'lifecycle Lifecycle', 13: 'terminationMessagePath string', 20: 'terminationMessagePolicy string', 14: 'imagePullPolicy string',
    15: 'securityContext SecurityContext', 16: 'stdin bool', 17: 'stdinOnce bool', 18: 'tty bool',
  },
  ContainerPort: { 1: 'name string', 2: 'hostPort int32', 3: 'containerPort int32*', 4: 'protocol string', 5: 'hostIP string' },
  ContainerResizePolicy: { 1: 'resourceName string*', 2: 'restartPolicy string*' },
  EnvVar: { 1: 'name string*', 2: 'value string', 3: 'valueFrom EnvVarSource' },
  EnvVarSource: { 1: 'fieldRef ObjectFieldSelector', 2: 'resourceFieldRef ResourceFieldSelector', 3: 'configMapKeyRef ConfigMapKeySelector', 4: 'secretKeyRef SecretKeySelector' },
  ObjectFieldSelector: { 1: 'apiVersion string', 2: 'fieldPath string*' },
  ResourceFieldSelector: { 1: 'containerName string', 2: 'resource string*', 3: 'divisor Quantity' },
  ConfigMapKeySelector: { 1: '... LocalObjectReference', 2: 'key string*', 3: 'optional bool*' },
  SecretKeySelector: { 1: '... LocalObjectReference', 2: 'key string*', 3: 'optional bool*' },
  EnvFromSource: { 1: 'prefix string', 2: 'configMapRef ConfigMapEnvSource', 3: 'secretRef SecretEnvSource' },
  ConfigMapEnvSource: { 1: '... LocalObjectReference', 2: 'optional bool*' },
  SecretEnvSource: { 1: '... LocalObjectReference', 2: 'optional bool*' },
  ResourceRequirements: { 1: 'limits map<string,Quantity>', 2: 'requests map<string,Quantity>', 3: 'claims []ResourceClaim' },
  ResourceClaim: { 1: 'name string*', 2: 'request string' },
  VolumeMount: {
    1: 'name string*', 2: 'readOnly bool', 7: 'recursiveReadOnly string*', 3: 'mountPath string*', 4: 'subPath string',
    5: 'mountPropagation string*', 6: 'subPathExpr string',
  },
  Volume: { 1: 'name string*', 2: '... VolumeSource' },
  VolumeSource: {
    1: 'hostPath HostPathVolumeSource', 2: 'emptyDir EmptyDirVolumeSource', 6: 'secret SecretVolumeSource',
    10: 'persistentVolumeClaim PersistentVolumeClaimVolumeSource', 19: 'configMap ConfigMapVolumeSource',
  },
  HostPathVolumeSource: { 1: 'path string*', 2: 'type string*' },
  EmptyDirVolumeSource: { 1: 'medium string', 2: 'sizeLimit Quantity' },
  SecretVolumeSource: { 1: 'secretName string', 2: 'items []KeyToPath', 3: 'defaultMode int32*', 4: 'optional bool*' },
  ConfigMapVolumeSource: { 1: '... LocalObjectReference', 2: 'items []KeyToPath', 3: 'defaultMode int32*', 4: 'optional bool*' },
  PersistentVolumeClaimVolumeSource: { 1: 'claimName string*', 2: 'readOnly bool' },
  KeyToPath: { 1: 'key string*', 2: 'path string*', 3: 'mode int32*' },

  Probe: {
    1: '... ProbeHandler', 2: 'initialDelaySeconds int32', 3: 'timeoutSeconds int32', 4: 'periodSeconds int32', 5: 'successThreshold int32',
    6: 'failureThreshold int32', 7: 'terminationGracePeriodSeconds int64*',
  },
  ProbeHandler: { 1: 'exec ExecAction', 2: 'httpGet HTTPGetAction', 3: 'tcpSocket TCPSocketAction', 4: 'grpc GRPCAction' },
  ExecAction: { 1: 'command []string' },
  HTTPGetAction: { 1: 'path string', 2: 'port IntOrString*', 3: 'host string', 4: 'scheme string', 5: 'httpHeaders []HTTPHeader' },
  HTTPHeader: { 1: 'name string*', 2: 'value string*' },
  TCPSocketAction: { 1: 'port IntOrString*', 2: 'host string' },
  GRPCAction: { 1: 'port int32*', 2: 'service string*' },
  Lifecycle: { 1: 'postStart LifecycleHandler', 2: 'preStop LifecycleHandler', 3: 'stopSignal string*' },
  LifecycleHandler: { 1: 'exec ExecAction', 2: 'httpGet HTTPGetAction', 3: 'tcpSocket TCPSocketAction', 4: 'sleep SleepAction' },
  SleepAction: { 1: 'seconds int64*' },
  SecurityContext: {
    1: 'capabilities Capabilities', 2: 'privileged bool*', 4: 'runAsUser int64*', 8: 'runAsGroup int64*', 5: 'runAsNonRoot bool*',
    6: 'readOnlyRootFilesystem bool*', 7: 'allowPrivilegeEscalation bool*', 9: 'procMount string*', 11: 'seccompProfile SeccompProfile',
  },
  Capabilities: { 1: 'add []string', 2: 'drop []string' },

  Event: {
    1: 'metadata ObjectMeta', 2: 'involvedObject ObjectReference', 3: 'reason string', 4: 'message string', 5: 'source EventSource',
    6: 'firstTimestamp Time', 7: 'lastTimestamp Time', 8: 'count int32', 9: 'type string', 10: 'eventTime MicroTime', 11: 'series EventSeries',
    12: 'action string', 13: 'related ObjectReference', 14: 'reportingComponent string*', 15: 'reportingInstance string*',
  },
  EventSource: { 1: 'component string', 2: 'host string' },
  EventSeries: { 1: 'count int32', 2: 'lastObservedTime MicroTime' },
};
