/**
 * The catalogue of buggy operators, each with its fixed twin, in the order of the docs' table: the
 * explorer must find every bug and pass every fix.
 */
import type { CatalogueEntry } from './widget.js';
import { finalizerBeforeCleanup } from './finalizer-before-cleanup.js';
import { childTwiceAfterCrash } from './child-twice-after-crash.js';
import { deleteRecreateCoalesced } from './delete-recreate-coalesced.js';
import { staleScaleDown } from './stale-scale-down.js';
import { statusHidesError } from './status-hides-error.js';
import { swallowedConflict } from './swallowed-conflict.js';
import { doubleAllocation } from './double-allocation.js';
import { unwatchedDependency } from './unwatched-dependency.js';
import { crashOnEmptyList, dropsUserFields, rollbackNotUndone, zeroTakenForUnset } from './render-operator.js';

export const CATALOGUE: readonly CatalogueEntry[] = [
  finalizerBeforeCleanup,
  childTwiceAfterCrash,
  deleteRecreateCoalesced,
  staleScaleDown,
  statusHidesError,
  swallowedConflict,
  doubleAllocation,
  unwatchedDependency,
  crashOnEmptyList,
  zeroTakenForUnset,
  dropsUserFields,
  rollbackNotUndone,
];
