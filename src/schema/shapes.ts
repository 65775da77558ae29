/**
 * Schemas for the shapes most custom resources reuse from the Kubernetes API, written as Kubernetes
 * publishes them: `metav1.Condition` lists, object references, quantities, durations, int-or-string
 * and label selectors. Each is a function so that every use gets its own schema value to annotate.
 */
import { Type, type TSchema, type TUnsafe } from 'typebox';
import type { Condition } from '../meta/index.js';
import { listAtomic, listMap, mapType } from './markers.js';

/** A field holding either an integer or a string (`intstr.IntOrString`), such as a port name or number. */
export const IntOrString = (options: { description?: string } = {}): TUnsafe<number | string> =>
  Type.Unsafe<number | string>({ ...options, 'x-kubernetes-int-or-string': true });

/** The decimal or binary SI form of a resource quantity (`resource.Quantity`): `500m`, `1Gi`, `2`. */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** A resource quantity (`resource.Quantity`): int-or-string with the quantity pattern. */
export const Quantity = (options: { description?: string } = {}): TUnsafe<number | string> =>
  Type.Unsafe<number | string>({ ...options, 'x-kubernetes-int-or-string': true, pattern: QUANTITY_PATTERN });

/** A Go duration string (`metav1.Duration`): `30s`, `1h30m`, `250ms`. */
export const Duration = (options: { description?: string; default?: string } = {}) => Type.String({ ...options, format: 'duration' });

/**
 * A `metav1.Condition` list, keyed by `type` for server-side apply; its static type is the
 * `Condition` the condition helpers of `kube-converge/meta` read and write.
 */
export function Conditions(options: { description?: string; minItems?: number; maxItems?: number } = {}): TUnsafe<Condition[]> {
  const condition = Type.Object({
    type: Type.String({
      maxLength: 316,
      pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
    }),
    status: Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Literal('Unknown')]),
    observedGeneration: Type.Optional(Type.Integer({ format: 'int64', minimum: 0 })),
    lastTransitionTime: Type.String({ format: 'date-time' }),
    reason: Type.String({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
    message: Type.String({ maxLength: 32768 }),
  });
  return listMap(Type.Array(condition, options), ['type']) as TSchema as TUnsafe<Condition[]>;
}

/** A reference to any object (`corev1.ObjectReference`), replaced as a whole by server-side apply. */
export const ObjectReference = (options: { description?: string } = {}) =>
  mapType(
    Type.Object(
      {
        apiVersion: Type.Optional(Type.String()),
        kind: Type.Optional(Type.String()),
        name: Type.Optional(Type.String()),
        namespace: Type.Optional(Type.String()),
        uid: Type.Optional(Type.String()),
        resourceVersion: Type.Optional(Type.String()),
        fieldPath: Type.Optional(Type.String()),
      },
      options,
    ),
    'atomic',
  );

/** A label selector (`metav1.LabelSelector`): `matchLabels` and `matchExpressions`, replaced as a whole by server-side apply. */
export const LabelSelector = (options: { description?: string } = {}) =>
  mapType(
    Type.Object(
      {
        matchLabels: Type.Optional(Type.Record(Type.String(), Type.String())),
        matchExpressions: Type.Optional(
          listAtomic(
            Type.Array(
              Type.Object({
                key: Type.String(),
                operator: Type.String(),
                values: Type.Optional(listAtomic(Type.Array(Type.String()))),
              }),
            ),
          ),
        ),
      },
      options,
    ),
    'atomic',
  );
