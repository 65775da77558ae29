/**
 * A decoded JSON object, and the one guard that tells it apart from arrays, null and scalars. Every
 * layer that walks decoded JSON (patches, schemas, selectors over fields) asks this same question.
 */

/** A decoded JSON object: string keys, values of any JSON type. @extension */
export type JsonObject = { [key: string]: unknown };

/** True for a JSON object: not null, not an array, not a scalar. @extension */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
