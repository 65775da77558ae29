/**
 * Field errors shaped like a Kubernetes `Status` `details.causes[]` entry: `reason` is the cause
 * type (`FieldValueRequired`, …), `field` the dotted path (`spec.items[0].name`), `message` the
 * error body as the real server words it (`Invalid value: "x": <detail>`). The REST layer builds
 * the Status message as `<field>: <message>` from these, so the wording here is what users see.
 * @extension
 */

export interface FieldCause {
  reason: string;
  field: string;
  message: string;
}

/** How a bad value is rendered inside a message: strings quoted, numbers and booleans bare. */
export function renderValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const withDetail = (body: string, detail: string): string => (detail === '' ? body : `${body}: ${detail}`);

export const fieldCause = {
  required: (field: string, detail = ''): FieldCause => ({
    reason: 'FieldValueRequired',
    field,
    message: withDetail('Required value', detail),
  }),
  forbidden: (field: string, detail: string): FieldCause => ({
    reason: 'FieldValueForbidden',
    field,
    message: withDetail('Forbidden', detail),
  }),
  invalid: (field: string, value: unknown, detail: string): FieldCause => ({
    reason: 'FieldValueInvalid',
    field,
    message: withDetail(`Invalid value: ${renderValue(value)}`, detail),
  }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldCause => ({
    reason: 'FieldValueTypeInvalid',
    field,
    message: withDetail(`Invalid value: ${renderValue(value)}`, detail),
  }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldCause => ({
    reason: 'FieldValueNotSupported',
    field,
    message: withDetail(
      `Unsupported value: ${renderValue(value)}`,
      supported.length === 0 ? '' : `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
    ),
  }),
  tooLong: (field: string, maxLength: number): FieldCause => ({
    reason: 'FieldValueTooLong',
    field,
    message: `Too long: may not be more than ${maxLength} bytes`,
  }),
  tooMany: (field: string, actual: number, max: number, unit: 'items' | 'properties'): FieldCause => ({
    reason: 'FieldValueTooMany',
    field,
    message: `Too many: ${actual}: must have at most ${max} ${unit}`,
  }),
  duplicate: (field: string, value: unknown): FieldCause => ({
    reason: 'FieldValueDuplicate',
    field,
    message: `Duplicate value: ${renderValue(value)}`,
  }),
};

/** Joins a parent path and a child field name the way Kubernetes field paths read. */
export function childPath(parent: string, child: string): string {
  return parent === '' ? child : `${parent}.${child}`;
}

export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
