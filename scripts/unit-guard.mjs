// Loaded with `--import` by `npm run test:unit`: inside each test file's process (the test runner
// marks them with NODE_TEST_CONTEXT), every way of starting a child process throws an error that names
// the rule of scripts/test-kinds.mjs. Invariant: a test that `test:unit` selects but that starts a
// program or a browser — directly, through a helper, or through the library — fails at once with that
// message instead of passing only where the program happens to be installed. The runner's own process
// is left alone: it starts the test files' processes.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'];

if (process.env.NODE_TEST_CONTEXT !== undefined) {
  for (const name of STARTERS) {
    childProcess[name] = () => {
      throw new Error(
        `child_process.${name} called in a unit test: unit tests start no processes or browsers. ` +
          'If this test must, add the line "// test-kind: process" to it (scripts/test-kinds.mjs explains the rule); ' +
          'it then runs with `npm test` and `npm run test:file`, not `npm run test:unit`.',
      );
    };
  }
  // ESM imports of node:child_process see the replacements too.
  syncBuiltinESMExports();
}
