/**
 * A queue for handler tests: records every add with its options and hands nothing out. It implements
 * the full `PriorityInterface` so handlers see what they would see in a controller.
 */
import type { AddOpts, GetWithPriorityResult, PriorityInterface } from 'kube-converge/workqueue';
import type { Request } from 'kube-converge/controller';

export interface RecordedAdd {
  req: Request;
  opts: AddOpts;
}

export class RecordingQueue implements PriorityInterface<Request> {
  readonly adds: RecordedAdd[] = [];
  add(item: Request): void {
    this.adds.push({ req: item, opts: {} });
  }
  addAfter(item: Request, delayMs: number): void {
    this.adds.push({ req: item, opts: { after: delayMs } });
  }
  addRateLimited(item: Request): void {
    this.adds.push({ req: item, opts: { rateLimited: true } });
  }
  addWithOpts(opts: AddOpts, ...items: Request[]): void {
    for (const req of items) this.adds.push({ req, opts });
  }
  forget(): void {}
  numRequeues(): number {
    return 0;
  }
  len(): number {
    return this.adds.length;
  }
  get(): Promise<never> {
    return Promise.reject(new Error('RecordingQueue hands nothing out'));
  }
  getWithPriority(): Promise<GetWithPriorityResult<Request>> {
    return Promise.reject(new Error('RecordingQueue hands nothing out'));
  }
  done(): void {}
  shutDown(): void {}
  shutDownWithDrain(): Promise<void> {
    return Promise.resolve();
  }
  shuttingDown(): boolean {
    return false;
  }
  /** `ns/name@priority` per add, priority omitted when unset. */
  keys(): string[] {
    return this.adds.map(
      ({ req, opts }) => `${req.namespace ? `${req.namespace}/` : ''}${req.name}${opts.priority === undefined ? '' : `@${opts.priority}`}`,
    );
  }
}
