/**
 * The content hash of an OpenAPI document, as the real server puts it in the v3 index
 * (`serverRelativeURL: /openapi/v3/apis/g/v?hash=<HASH>`): uppercase hex SHA-512 of the JSON.
 * Clients cache documents by this URL, so it must change whenever the document does and stay
 * the same when it does not.
 */
import { createHash } from 'node:crypto';

export function openApiHash(doc: unknown): string {
  return createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();
}
