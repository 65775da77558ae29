/**
 * OpenAPI path items for one served resource: the collection and item paths (namespaced and, for
 * lists, across all namespaces) and the `status`/`scale` subresources, with the operations its
 * discovery verbs allow. Every operation carries `x-kubernetes-action` and
 * `x-kubernetes-group-version-kind`, and every PATCH lists the `fieldValidation` query parameter:
 * kubectl's query-param verifier looks exactly there to decide whether the server validates
 * fields itself (`?fieldValidation=Strict`) or kubectl must download a v2 schema to do it.
 *
 * PATCH request bodies list JSON patch, merge patch and apply patch, but not strategic merge
 * patch, even for the built-in kinds the server merges strategically. kubectl's client-side apply
 * computes a strategic patch from the v3 schema of a kind whose PATCH lists it; the built-in
 * schemas published here carry Kubernetes 1.27's patch metadata, so fields newer than that would be
 * replaced wholesale. Without it, kubectl falls back to its compiled-in types, which have the merge
 * keys of its own release, and still sends a strategic merge patch.
 */
import type { GroupVersionKind } from '../../meta/index.js';
import type { ServedResource, ServedSubresource } from '../served-resource.js';
import { componentName, ref, STATUS, PATCH, DELETE_OPTIONS, WATCH_EVENT } from './component-names.js';

type Json = Record<string, unknown>;

const param = (name: string, location: 'path' | 'query', description: string, type = 'string'): Json => ({
  name,
  in: location,
  description,
  ...(location === 'path' ? { required: true } : {}),
  schema: { type, uniqueItems: true },
});

const P = {
  name: (kind: string) => param('name', 'path', `name of the ${kind}`),
  namespace: param('namespace', 'path', 'object name and auth scope, such as for teams and projects'),
  pretty: param('pretty', 'query', "If 'true', then the output is pretty printed."),
  dryRun: param(
    'dryRun',
    'query',
    'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed',
  ),
  fieldManager: param('fieldManager', 'query', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
  fieldValidation: param(
    'fieldValidation',
    'query',
    'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: - Ignore - Warn (default) - Strict',
  ),
  force: param(
    'force',
    'query',
    'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
    'boolean',
  ),
  gracePeriodSeconds: param('gracePeriodSeconds', 'query', 'The duration in seconds before the object should be deleted.', 'integer'),
  propagationPolicy: param(
    'propagationPolicy',
    'query',
    "Whether and how garbage collection will be performed: 'Orphan', 'Background' or 'Foreground'.",
  ),
  orphanDependents: param('orphanDependents', 'query', 'Deprecated: please use the PropagationPolicy.', 'boolean'),
  resourceVersion: param(
    'resourceVersion',
    'query',
    'resourceVersion sets a constraint on what resource versions a request may be served from.',
  ),
  list: [
    param('allowWatchBookmarks', 'query', 'allowWatchBookmarks requests watch events with type "BOOKMARK".', 'boolean'),
    param('continue', 'query', 'The continue option should be set when retrieving more results from the server.'),
    param('fieldSelector', 'query', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
    param('labelSelector', 'query', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
    param('limit', 'query', 'limit is a maximum number of responses to return for a list call.', 'integer'),
    param('resourceVersion', 'query', 'resourceVersion sets a constraint on what resource versions a request may be served from.'),
    param('resourceVersionMatch', 'query', 'resourceVersionMatch determines how resourceVersion is applied to list calls.'),
    param(
      'sendInitialEvents',
      'query',
      '`sendInitialEvents=true` may be set together with `watch=true` to stream the current state first.',
      'boolean',
    ),
    param('timeoutSeconds', 'query', 'Timeout for the list/watch call.', 'integer'),
    param(
      'watch',
      'query',
      'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.',
      'boolean',
    ),
  ],
};

const body = (schema: Json, types: readonly string[]): Json => ({
  content: Object.fromEntries(types.map((t) => [t, { schema }])),
  required: true,
});

const RESPONSE_TYPES = ['application/json', 'application/yaml'] as const;
const WATCH_TYPES = ['application/json', 'application/yaml', 'application/json;stream=watch'] as const;
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'] as const;

const response = (description: string, schema: Json, types: readonly string[] = RESPONSE_TYPES): Json => ({
  description,
  content: Object.fromEntries(types.map((t) => [t, { schema }])),
});

/** `platform.converge.dev` → `PlatformConvergeDev`, `` → `Core`; the real server's operationId prefix. */
function groupPrefix(gvk: GroupVersionKind): string {
  const words = gvk.group === '' ? ['core'] : gvk.group.split(/[.-]/);
  const camel = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return camel + gvk.version.charAt(0).toUpperCase() + gvk.version.slice(1);
}

function tagOf(gvk: GroupVersionKind): string {
  const group =
    gvk.group === ''
      ? 'core'
      : gvk.group
          .split(/[.-]/)
          .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
          .join('');
  return `${group}_${gvk.version}`;
}

interface OperationSpec {
  verb: 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
  gvk: GroupVersionKind;
  operationId: string;
  description: string;
  schema: string;
  listSchema?: string;
  tag: string;
}

function operation(o: OperationSpec): Json {
  const common = { tags: [o.tag], description: o.description, operationId: o.operationId };
  const ext = {
    'x-kubernetes-action': o.verb,
    'x-kubernetes-group-version-kind': { group: o.gvk.group, kind: o.gvk.kind, version: o.gvk.version },
  };
  const obj = ref(o.schema);
  const unauthorized = { '401': { description: 'Unauthorized' } };
  switch (o.verb) {
    case 'get':
      return { ...common, responses: { '200': response('OK', obj), ...unauthorized }, ...ext };
    case 'list':
      return {
        ...common,
        parameters: P.list,
        responses: { '200': response('OK', ref(o.listSchema ?? o.schema), WATCH_TYPES), ...unauthorized },
        ...ext,
      };
    case 'watch':
      return {
        ...common,
        parameters: P.list,
        responses: { '200': response('OK', ref(WATCH_EVENT), WATCH_TYPES), ...unauthorized },
        ...ext,
      };
    case 'create':
    case 'update': {
      const created =
        o.verb === 'create' ? { '201': response('Created', obj), '202': response('Accepted', obj) } : { '201': response('Created', obj) };
      return {
        ...common,
        parameters: [P.dryRun, P.fieldManager, P.fieldValidation],
        requestBody: body(obj, ['*/*']),
        responses: { '200': response('OK', obj), ...created, ...unauthorized },
        ...ext,
      };
    }
    case 'patch':
      return {
        ...common,
        parameters: [P.dryRun, P.fieldManager, P.fieldValidation, P.force],
        requestBody: body(ref(PATCH), PATCH_TYPES),
        responses: { '200': response('OK', obj), '201': response('Created', obj), ...unauthorized },
        ...ext,
      };
    case 'delete':
      return {
        ...common,
        parameters: [P.dryRun, P.gracePeriodSeconds, P.orphanDependents, P.propagationPolicy],
        requestBody: body(ref(DELETE_OPTIONS), ['*/*']),
        responses: { '200': response('OK', ref(STATUS)), '202': response('Accepted', ref(STATUS)), ...unauthorized },
        ...ext,
      };
    case 'deletecollection':
      return {
        ...common,
        parameters: [
          P.dryRun,
          P.gracePeriodSeconds,
          P.orphanDependents,
          P.propagationPolicy,
          ...P.list.filter((p) => p['name'] !== 'watch' && p['name'] !== 'allowWatchBookmarks'),
        ],
        requestBody: body(ref(DELETE_OPTIONS), ['*/*']),
        responses: { '200': response('OK', ref(STATUS)), ...unauthorized },
        ...ext,
      };
  }
}

/** The path items of one resource, keyed by path (`/apis/g/v/namespaces/{namespace}/plural/{name}`). */
export function resourcePaths(r: ServedResource): Record<string, Json> {
  const gvk = { group: r.group, version: r.version, kind: r.kind };
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const scope = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.plural}` : `${prefix}/${r.plural}`;
  const ns = r.namespaced ? 'Namespaced' : '';
  const id = groupPrefix(gvk);
  const tag = tagOf(gvk);
  const schema = componentName(gvk);
  const listSchema = componentName({ ...gvk, kind: `${r.kind}List` });
  const has = (verb: string) => r.verbs.includes(verb);
  const scopeParams = r.namespaced ? [P.namespace] : [];
  const paths: Record<string, Json> = {};

  const collection: Json = {};
  if (has('list'))
    collection['get'] = operation({
      verb: 'list',
      gvk,
      operationId: `list${id}${ns}${r.kind}`,
      description: `list or watch objects of kind ${r.kind}`,
      schema,
      listSchema,
      tag,
    });
  if (has('create'))
    collection['post'] = operation({
      verb: 'create',
      gvk,
      operationId: `create${id}${ns}${r.kind}`,
      description: `create a ${r.kind}`,
      schema,
      tag,
    });
  if (has('deletecollection'))
    collection['delete'] = operation({
      verb: 'deletecollection',
      gvk,
      operationId: `delete${id}Collection${ns}${r.kind}`,
      description: `delete collection of ${r.kind}`,
      schema,
      tag,
    });
  if (Object.keys(collection).length > 0) paths[scope] = { ...collection, parameters: [...scopeParams, P.pretty] };

  const item: Json = {};
  if (has('get'))
    item['get'] = operation({
      verb: 'get',
      gvk,
      operationId: `read${id}${ns}${r.kind}`,
      description: `read the specified ${r.kind}`,
      schema,
      tag,
    });
  if (has('update'))
    item['put'] = operation({
      verb: 'update',
      gvk,
      operationId: `replace${id}${ns}${r.kind}`,
      description: `replace the specified ${r.kind}`,
      schema,
      tag,
    });
  if (has('patch'))
    item['patch'] = operation({
      verb: 'patch',
      gvk,
      operationId: `patch${id}${ns}${r.kind}`,
      description: `partially update the specified ${r.kind}`,
      schema,
      tag,
    });
  if (has('delete'))
    item['delete'] = operation({
      verb: 'delete',
      gvk,
      operationId: `delete${id}${ns}${r.kind}`,
      description: `delete a ${r.kind}`,
      schema,
      tag,
    });
  if (Object.keys(item).length > 0) paths[`${scope}/{name}`] = { ...item, parameters: [P.name(r.kind), ...scopeParams, P.pretty] };

  if (r.namespaced && has('list')) {
    paths[`${prefix}/${r.plural}`] = {
      get: operation({
        verb: 'list',
        gvk,
        operationId: `list${id}${r.kind}ForAllNamespaces`,
        description: `list or watch objects of kind ${r.kind}`,
        schema,
        listSchema,
        tag,
      }),
      parameters: [P.pretty],
    };
  }

  for (const sub of r.subresources) paths[`${scope}/{name}/${sub.name}`] = subresourcePath(r, sub, { id, ns, tag, scopeParams });
  return paths;
}

function subresourcePath(
  r: ServedResource,
  sub: ServedSubresource,
  at: { id: string; ns: string; tag: string; scopeParams: Json[] },
): Json {
  const gvk = sub.responseKind;
  const schema = componentName(gvk);
  const suffix = sub.name.charAt(0).toUpperCase() + sub.name.slice(1);
  const item: Json = {};
  const base = { gvk, schema, tag: at.tag };
  if (sub.verbs.includes('get'))
    item['get'] = operation({
      ...base,
      verb: 'get',
      operationId: `read${at.id}${at.ns}${r.kind}${suffix}`,
      description: `read ${sub.name} of the specified ${r.kind}`,
    });
  if (sub.verbs.includes('update'))
    item['put'] = operation({
      ...base,
      verb: 'update',
      operationId: `replace${at.id}${at.ns}${r.kind}${suffix}`,
      description: `replace ${sub.name} of the specified ${r.kind}`,
    });
  if (sub.verbs.includes('patch'))
    item['patch'] = operation({
      ...base,
      verb: 'patch',
      operationId: `patch${at.id}${at.ns}${r.kind}${suffix}`,
      description: `partially update ${sub.name} of the specified ${r.kind}`,
    });
  return { ...item, parameters: [P.name(r.kind), ...at.scopeParams, P.pretty] };
}
