// A definition whose two versions share one spec and one status schema value, as multi-version
// definitions usually do: the generate tests check its YAML spells the shared parts out in each.
import { Type } from 'typebox';
import { Conditions, defineCustomResource } from 'kube-converge/schema';

const spec = Type.Object({ size: Type.Integer({ minimum: 0 }) });
const status = Type.Object({ conditions: Type.Optional(Conditions()) });

export const Sprocket = defineCustomResource({
  group: 'schema.converge.dev',
  kind: 'Sprocket',
  scope: 'Cluster',
  versions: {
    v1: { served: true, storage: true, spec, status },
    v1beta1: { served: true, storage: false, spec, status },
  },
  conversion: { strategy: 'None' },
});
