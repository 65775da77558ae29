/**
 * Fixtures run as processes of their own, and the tests that start them. A fixture is a TypeScript
 * file run through tsx; it reads its settings from the environment (`requiredEnv`) and reports what
 * it does as one JSON object per line on stdout (`printLine`), with wall-clock milliseconds
 * (`wallMs`) that compare across processes on one host. The test side (`FixtureProcess`) hands each
 * whole line to `line` in order and keeps stderr for failure messages. Invariant: a line printed
 * before the fixture dies reaches the test, since writes to a pipe are synchronous on Linux.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** The environment variable `name`, or an error naming it. */
export function requiredEnv(name: string): string {
  const v = process.env[name];
  if (v === undefined || v === '') throw new Error(`${name} is not set`);
  return v;
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes on one host. */
export const wallMs = (): number => performance.timeOrigin + performance.now();

/** Prints `line` as one JSON line on stdout. */
export const printLine = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

/** A fixture started as a process; subclasses read its JSON lines. */
export abstract class FixtureProcess {
  stderr = '';
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(fixture: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', fixture], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffered = '';
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) this.line(JSON.parse(line) as Record<string, unknown>);
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** One line the fixture printed. */
  protected abstract line(l: Record<string, unknown>): void;
}
