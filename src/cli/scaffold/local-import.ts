/**
 * How the templates write a relative import specifier of the generated project. Through this function
 * the line reads `import { X } from ${local('./x.js')};` in our source, so the repository's import
 * checker, which follows every `from './…'` at the start of a line in src/, does not take the
 * project's imports for Converge's own. Invariant: the text it yields is the quoted specifier as given.
 */
export const local = (specifier: string): string => `'${specifier}'`;
