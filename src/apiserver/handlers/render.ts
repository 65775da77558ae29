/**
 * Rendering stored objects in the negotiated output form: plain JSON (each stored object serialised
 * once and reused), `PartialObjectMetadata(List)`, or `Table`. Lists are assembled from the items'
 * cached JSON text rather than re-serialised. Watch encoders live here too, so a watch renders events
 * exactly like a get renders objects.
 */
import type { KubeObject } from '../../meta/index.js';
import { present, type Scope } from '../registry/index.js';
import type { OutputForm } from '../wire/index.js';
import { goJson } from '../wire/index.js';
import { frozenJson } from '../wire/index.js';
import type { WatchEncoder, WatchEventType } from '../watch-hub.js';
import { listMetaJson, type ListMetaOut } from '../wire/index.js';

export type { ListMetaOut } from '../wire/index.js';

type RenderScope = Pick<Scope, 'strategy' | 'version' | 'ctx' | 'views'>;

const partial = (obj: KubeObject): KubeObject => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });

function tableOf(
  scope: RenderScope,
  objects: KubeObject[],
  form: Extract<OutputForm, { kind: 'table' }>,
  omitColumnDefinitions: boolean,
): Record<string, unknown> {
  return scope.ctx.table(
    objects.map((o) => present(scope, o)),
    scope.strategy.served(scope.version),
    {
      includeObject: form.includeObject,
      now: scope.ctx.clock.now(),
      omitColumnDefinitions,
      ...(scope.strategy.printer ? { printer: scope.strategy.printer } : {}),
    },
  );
}

/** A Table in Go's field order, its `metadata` already written by the ListMeta writer. */
function tableJson(t: Record<string, unknown>, metaJson: string): string {
  const defs = goJson(JSON.stringify(t['columnDefinitions']));
  return `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":${metaJson},"columnDefinitions":${defs},"rows":${goJson(JSON.stringify(t['rows']))}}`;
}

const objectMetaJson = (obj: KubeObject): string => listMetaJson({ resourceVersion: obj.metadata.resourceVersion ?? '' });

/** One object in the requested form. */
export function renderObject(scope: RenderScope, form: OutputForm, obj: KubeObject): string {
  switch (form.kind) {
    case 'json':
      return frozenJson(present(scope, obj));
    case 'partial':
      return goJson(JSON.stringify(partial(obj)));
    case 'table':
      return tableJson(tableOf(scope, [obj], form, false), objectMetaJson(obj));
  }
}

/** A list in the requested form. */
export function renderList(scope: RenderScope, form: OutputForm, items: KubeObject[], meta: ListMetaOut): string {
  const metaJson = listMetaJson(meta);
  switch (form.kind) {
    case 'json': {
      const apiVersion = scope.strategy.apiVersion(scope.version);
      const body = items.map((o) => frozenJson(present(scope, o))).join(',');
      return `{"kind":${JSON.stringify(scope.strategy.listKind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${metaJson},"items":[${body}]}`;
    }
    case 'partial':
      return `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":${metaJson},"items":${goJson(JSON.stringify(items.map(partial)))}}`;
    case 'table':
      return tableJson(tableOf(scope, items, form, false), metaJson);
  }
}

/** The watch encoder for an output form. Watchers of the same resource, version and form share lines. */
export function watchEncoder(scope: RenderScope, form: OutputForm): WatchEncoder {
  const apiVersion = scope.strategy.apiVersion(scope.version);
  const kind = scope.strategy.kind;
  const line = (type: string, objJson: string): string => `{"type":"${type}","object":${objJson}}\n`;
  return {
    key: `${apiVersion}|${form.kind}|${form.kind === 'table' ? form.includeObject : ''}`,
    firstDiffers: form.kind === 'table',
    render(type: WatchEventType, obj: KubeObject, first: boolean): string {
      if (form.kind === 'table') return line(type, tableJson(tableOf(scope, [obj], form, !first), objectMetaJson(obj)));
      return line(type, renderObject(scope, form, obj));
    },
    bookmark(rv: number, annotations?: Record<string, string>): string {
      const metadata = { resourceVersion: String(rv), ...(annotations ? { annotations } : {}) };
      const o =
        form.kind === 'json'
          ? { kind, apiVersion, metadata }
          : form.kind === 'partial'
            ? { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata }
            : { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata, columnDefinitions: null, rows: null };
      return line('BOOKMARK', goJson(JSON.stringify(o)));
    },
  };
}
