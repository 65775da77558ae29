/**
 * What a controller builder sets besides its watches: predicates for every source it makes from a
 * kind (`withEventFilter`), the controller's options (`withOptions`) and its name (`named`). The
 * controller builder and the multi-cluster one both extend it, so these three read and behave the same
 * in both. Invariant: it only records; the builder that extends it reads the settings in `build`.
 */
import type { ControllerOptions } from './options.js';
import type { Predicate } from './predicate.js';

/** The settings every controller builder shares; extended by `Builder` and the multi-cluster builder. */
export abstract class BuilderSettings {
  /** Predicates from `withEventFilter`, applied before each source's own. */
  protected readonly eventFilters: Predicate[] = [];
  protected controllerOptions: ControllerOptions = {};
  /** From `named`; undefined: the builder's default (the lower-case kind of `for`). */
  protected controllerName: string | undefined;

  /** Adds a predicate applied to every source the builder makes from a kind (`for`, `owns`, `watches`), not to raw sources. */
  withEventFilter(predicate: Predicate): this {
    this.eventFilters.push(predicate);
    return this;
  }

  /** Replaces the controller options wholesale. */
  withOptions(options: ControllerOptions): this {
    this.controllerOptions = options;
    return this;
  }

  /** Sets the controller's name (default: the lower-case kind of `for`). */
  named(name: string): this {
    this.controllerName = name;
    return this;
  }
}
