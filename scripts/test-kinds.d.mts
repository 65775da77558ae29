// Types of scripts/test-kinds.mjs, for the test of the rule that splits unit tests from process tests.
export const PROCESS_MODULES: readonly string[];
export const PROCESS_MARKER: string;
export const LONG_RUNNING_NAME: RegExp;
export function testFiles(root?: string): string[];
export function processReason(file: string, root?: string): string | undefined;
export function unitTestFiles(root?: string): string[];
