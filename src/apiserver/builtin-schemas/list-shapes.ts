/**
 * How the built-in kinds' lists merge under server-side apply, from the same upstream schemas:
 * per component, the fields on the way to a list marked `x-kubernetes-list-type: map` (with its
 * `x-kubernetes-list-map-keys`, and the defaults of optional keys) or `set`; every list not named
 * is atomic. A small file of its own, read on the first write that records managed fields, so no
 * write has to parse the full schemas.
 */
import { readDataFile } from './data-file.js';

/** One field on the way to a keyed list: the component of its value, its list type, its elements, its map values. */
export interface ShapeNode {
  ref?: string;
  /** `['map', ...keys]` or `['set']`. */
  list?: string[];
  keyDefaults?: Record<string, unknown>;
  items?: ShapeNode;
  values?: ShapeNode;
}

export interface ListShapes {
  /** `group/version/Kind` → the component of that kind. */
  kinds: Readonly<Record<string, string>>;
  /** component → field → the way to its keyed lists; components without keyed lists are absent. */
  shapes: Readonly<Record<string, Readonly<Record<string, ShapeNode>>>>;
}

let loaded: ListShapes | null | undefined;

/** The process's list shapes, or undefined when the data was not generated. */
export function builtinListShapes(): ListShapes | undefined {
  if (loaded === undefined) {
    const bytes = readDataFile('list-shapes.json');
    loaded = bytes === undefined ? null : (JSON.parse(bytes.toString('utf8')) as ListShapes);
  }
  return loaded ?? undefined;
}
