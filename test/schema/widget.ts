// A definition that uses every part of the schema layer at once (two versions, every marker and
// shape, printer columns, status and scale subresources, selectable fields), shared by the tests
// that hand its CRD to the local API server and to kubectl.
import { Type } from 'typebox';
import {
  Conditions,
  Duration,
  IntOrString,
  LabelSelector,
  ObjectReference,
  Quantity,
  defineCustomResource,
  embeddedResource,
  listMap,
  listSet,
  mapType,
  withValidations,
} from 'kube-converge/schema';

const WidgetSpec = withValidations(
  Type.Object({
    color: Type.Union([Type.Literal('red'), Type.Literal('green'), Type.Literal('blue')], { default: 'red' }),
    replicas: Type.Integer({ minimum: 0, maximum: 100, default: 1, format: 'int32' }),
    port: Type.Optional(IntOrString()),
    memory: Type.Optional(Quantity()),
    interval: Type.Optional(Duration()),
    owner: Type.Optional(ObjectReference()),
    selector: Type.Optional(LabelSelector()),
    labels: Type.Optional(mapType(Type.Record(Type.String(), Type.String()), 'granular')),
    tags: Type.Optional(listSet(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 }))),
    env: Type.Optional(
      listMap(Type.Array(Type.Object({ name: Type.String({ minLength: 1 }), value: Type.Optional(Type.String()) }), { maxItems: 32 }), [
        'name',
      ]),
    ),
    template: Type.Optional(embeddedResource()),
    extra: Type.Optional(Type.Unknown()),
    note: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
    minReplicas: Type.Optional(Type.Integer({ minimum: 0 })),
  }),
  [
    {
      rule: '!has(self.minReplicas) || self.minReplicas <= self.replicas',
      message: 'minReplicas must not exceed replicas',
      fieldPath: '.minReplicas',
    },
    {
      rule: "self.color != 'blue' || self.replicas > 0",
      // Not string(self.replicas): a converted string has no size bound, so kube's estimate puts the
      // message over its budget; a choice between literals keeps it bounded.
      messageExpression: "'a blue widget needs replicas, got ' + (self.replicas == 0 ? '0' : 'a negative count')",
    },
  ],
);

const WidgetStatus = Type.Object({
  replicas: Type.Optional(Type.Integer()),
  selector: Type.Optional(Type.String()),
  observedGeneration: Type.Optional(Type.Integer({ format: 'int64' })),
  conditions: Type.Optional(Conditions()),
});

export const Widget = defineCustomResource({
  group: 'schema.converge.dev',
  kind: 'Widget',
  shortNames: ['wdg'],
  categories: ['converge'],
  scope: 'Namespaced',
  versions: {
    v1beta1: {
      served: true,
      storage: false,
      deprecated: 'schema.converge.dev/v1beta1 Widget is deprecated; use v1',
      spec: Type.Object({ color: Type.String() }),
    },
    v1: {
      served: true,
      storage: true,
      spec: WidgetSpec,
      status: WidgetStatus,
      subresources: {
        status: true,
        scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
      },
      printerColumns: [
        { name: 'Color', type: 'string', jsonPath: '.spec.color' },
        { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
      selectableFields: ['.spec.color'],
    },
  },
});
