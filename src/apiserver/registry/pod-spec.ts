/**
 * Pod spec defaulting and validation shared by Pods and the pod templates of Deployments and
 * ReplicaSets: the defaults the real server writes (restartPolicy, dnsPolicy, schedulerName,
 * termination message path/policy, imagePullPolicy, …), so objects read back look like a cluster's;
 * and the checks clients hit most (containers present, named, with images).
 */
import { dns1123LabelErrors } from '../../meta/index.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import type { DecodedFields } from './strategy.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function defaultContainer(c: Obj): void {
  const image = typeof c.image === 'string' ? c.image : '';
  const tag = image.includes('@') ? 'digest' : (image.split('/').pop() ?? '').split(':')[1];
  c.imagePullPolicy ??= !tag || tag === 'latest' ? 'Always' : 'IfNotPresent';
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.resources ??= {};
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObj(p)) p.protocol ??= 'TCP';
}

/** The typed fields of a pod spec at `path` that defaulting and validation read (see `Strategy.decodedFields`). */
export function podSpecFields(path: string): DecodedFields {
  const out: DecodedFields = { [path]: 'object' };
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    const c = `${path}.${list}`;
    Object.assign(out, {
      [c]: 'array',
      [`${c}[]`]: 'object',
      [`${c}[].ports`]: 'array',
      [`${c}[].ports[]`]: 'object',
      [`${c}[].env`]: 'array',
      [`${c}[].env[]`]: 'object',
      [`${c}[].volumeMounts`]: 'array',
      [`${c}[].volumeMounts[]`]: 'object',
      [`${c}[].resources`]: 'object',
    });
  }
  return Object.assign(out, { [`${path}.volumes`]: 'array', [`${path}.volumes[]`]: 'object' });
}

export function defaultPodSpec(spec: unknown): void {
  if (!isObj(spec)) return;
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  for (const list of ['containers', 'initContainers']) {
    const cs = spec[list];
    if (Array.isArray(cs)) for (const c of cs) if (isObj(c)) defaultContainer(c);
  }
}

export function validatePodSpec(spec: unknown, path: string): FieldCause[] {
  if (!isObj(spec)) return [fieldCause.required(path)];
  const out: FieldCause[] = [];
  const cs = spec.containers;
  if (!Array.isArray(cs) || cs.length === 0) return [fieldCause.required(`${path}.containers`)];
  const names = new Set<string>();
  cs.forEach((c, i) => {
    const f = `${path}.containers[${i}]`;
    if (!isObj(c)) {
      out.push(fieldCause.invalid(f, c, 'must be an object'));
      return;
    }
    if (typeof c.name !== 'string' || !c.name) out.push(fieldCause.required(`${f}.name`));
    else {
      for (const e of dns1123LabelErrors(c.name)) out.push(fieldCause.invalid(`${f}.name`, c.name, e));
      if (names.has(c.name)) out.push(fieldCause.duplicate(`${f}.name`, c.name));
      names.add(c.name);
    }
    if (typeof c.image !== 'string' || !c.image.trim()) out.push(fieldCause.required(`${f}.image`));
  });
  const rp = spec.restartPolicy;
  if (rp !== undefined && rp !== 'Always' && rp !== 'OnFailure' && rp !== 'Never') {
    out.push(fieldCause.notSupported(`${path}.restartPolicy`, rp, ['Always', 'Never', 'OnFailure']));
  }
  return out;
}

/** QoS class from container requests and limits (`qos.GetPodQOS`, simplified to cpu and memory). */
export function qosClassOf(spec: unknown): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  if (!isObj(spec) || !Array.isArray(spec.containers)) return 'BestEffort';
  let any = false;
  let guaranteed = true;
  for (const c of spec.containers) {
    const r = isObj(c) && isObj(c.resources) ? c.resources : {};
    const req = isObj(r.requests) ? r.requests : {};
    const lim = isObj(r.limits) ? r.limits : {};
    if (Object.keys(req).length > 0 || Object.keys(lim).length > 0) any = true;
    for (const k of ['cpu', 'memory']) {
      if (lim[k] === undefined || (req[k] !== undefined && String(req[k]) !== String(lim[k]))) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
