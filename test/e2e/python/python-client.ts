// How the Python tests reach the `kubernetes` client: the interpreter that has it, whether to skip without one
// (never in CI, which installs it), and one scenario of a driver script run against a server, its printed JSON
// parsed.
import { execFile, spawnSync } from 'node:child_process';
import type { ApiserverProcess } from '../apiserver-process.js';

const SCENARIO_TIMEOUT_MS = 60_000;
export const INSTALL_HINT =
  'install it with `apt-get install python3-kubernetes` (what .ci/run does), or name an interpreter that has it in CONVERGE_PYTHON';

/**
 * The first interpreter that imports `kubernetes`: CONVERGE_PYTHON when set, else `python3` on PATH, else the system
 * one (a pyenv or venv python3 first on PATH does not see Debian's python3-kubernetes).
 */
function findPython(): string | undefined {
  const listed = process.env['CONVERGE_PYTHON'];
  const candidates = listed !== undefined && listed !== '' ? [listed] : ['python3', '/usr/bin/python3'];
  return candidates.find((py) => spawnSync(py, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0);
}

export const python = findPython();
const inCi = process.env['CI'] === 'true';
/** The `skip` option of a suite that needs the client. */
export const skip = python === undefined && !inCi ? `no python3 with the kubernetes client: ${INSTALL_HINT}` : false;

/** Runs `script KUBECONFIG NAMESPACE SCENARIO` and parses what it printed. */
export function runScenario(script: string, server: ApiserverProcess, namespace: string, scenario: string): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(
      python!,
      [script, server.kubeconfig, namespace, scenario],
      { timeout: SCENARIO_TIMEOUT_MS, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`${script} ${scenario} failed (${error.message}):\n${stderr}`));
        else {
          try {
            resolve(JSON.parse(stdout));
          } catch (e) {
            reject(new Error(`${script} ${scenario} printed no JSON document (${String(e)}):\n${stdout}`));
          }
        }
      },
    );
  });
}
