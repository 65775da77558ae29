// Workqueue benchmarks, measured side by side in one process and reported as ratios.
//
// (a) add+get+done cycles per second: `Queue` against a bare Map+Set+array queue doing the same
//     bookkeeping (dirty map, processing set, FIFO, dedup, async get); goal: within 3x.
// (b) per-op cost of addAfter and of promotion (waiting → ready) with 1,000 vs 100,000 items
//     already waiting, in `DelayingQueue` and `PriorityQueue`; goal: 100k/1k ratio under 3x, i.e.
//     O(log n). A manual clock fires the single promotion timer directly, so time does not matter.
// (c) `PriorityQueue` with aging (the default) against the same queue in controller-runtime's strict
//     order (`agingIntervalMs: Infinity`, the queue before aging): add+get+done cycles over mixed
//     priorities, as a ratio of CPU time (process.cpuUsage), which a busy machine disturbs less than
//     wall time; goal: aging costs under 1.2x.
import { DelayingQueue, PriorityQueue, Queue } from 'kube-converge/workqueue';
import type { Clock, Timer } from 'kube-converge/meta';

const KEYS = Array.from({ length: 1000 }, (_, i) => `default/item-${i}`);
const ROUNDS = 7;
/** (b) is noisier (cache-bound), so it takes the median of more rounds. */
const DELAY_ROUNDS = 11;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function ns(): number {
  return Number(process.hrtime.bigint());
}

/** The same bookkeeping as client-go's queue, with nothing else: no metrics, no shutdown, no waiters. */
class BareQueue {
  readonly dirty = new Map<string, string>();
  readonly processing = new Set<string>();
  queue: string[] = [];
  head = 0;
  add(item: string): void {
    if (this.dirty.has(item)) return;
    this.dirty.set(item, item);
    if (this.processing.has(item)) return;
    this.queue.push(item);
  }
  get(): Promise<{ item: string | undefined; shutdown: boolean }> {
    if (this.head >= this.queue.length) return Promise.resolve({ item: undefined, shutdown: true });
    const key = this.queue[this.head++]!;
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
    const item = this.dirty.get(key)!;
    this.dirty.delete(key);
    this.processing.add(key);
    return Promise.resolve({ item, shutdown: false });
  }
  done(item: string): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) this.queue.push(item);
  }
}

interface CycleQueue {
  add(item: string): void;
  get(): Promise<{ item: string | undefined; shutdown: boolean }>;
  done(item: string): void;
}

/** Each pass adds every key twice (the second add is de-duplicated), then gets and finishes them all. */
async function cycles(q: CycleQueue, passes: number): Promise<number> {
  const t0 = ns();
  for (let p = 0; p < passes; p++) {
    for (const k of KEYS) q.add(k);
    for (const k of KEYS) q.add(k);
    for (let i = 0; i < KEYS.length; i++) {
      const r = await q.get();
      q.done(r.item!);
    }
  }
  return (passes * KEYS.length) / ((ns() - t0) / 1e9);
}

/** A clock whose one pending timer the benchmark fires by hand. */
class ManualClock implements Clock {
  t = 0;
  fn: (() => void) | undefined;
  now(): number {
    return this.t;
  }
  monotonicMs(): number {
    return this.t;
  }
  setTimer(fn: () => void, _ms: number): Timer {
    this.fn = fn;
    return {
      cancel: () => {
        if (this.fn === fn) this.fn = undefined;
      },
    };
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(resolve, ms));
  }
}

interface DelayQueue {
  addAfter(item: string, ms: number): void;
  shutDown(): void;
}

const OPS = 1000;

/**
 * Per-op ns of addAfter and of promotion with `waiting` items already waiting far in the future.
 * A first batch of near items is added and promoted untimed, so that the heap array and maps have
 * already grown: a one-off reallocation of a 100k array inside the timed window would measure
 * amortised growth, not the O(log n) per-op cost.
 */
function delayCosts(make: (clock: Clock) => DelayQueue, waiting: number, seed: number): { addAfter: number; promote: number } {
  const clock = new ManualClock();
  const q = make(clock);
  let x = seed;
  const rand = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let i = 0; i < waiting; i++) q.addAfter(`far-${i}`, 10_000_000 + Math.floor(rand() * 1_000_000));
  const batch = (tag: string) => Array.from({ length: OPS }, (_, i) => ({ key: `${tag}-${i}`, delay: 1 + Math.floor(rand() * 1000) }));
  const warm = batch('warm');
  const near = batch('near');
  for (const { key, delay } of warm) q.addAfter(key, delay);
  clock.t += 1001;
  clock.fn!();
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = ns();
  for (const { key, delay } of near) q.addAfter(key, delay);
  const t1 = ns();
  clock.t += 1001;
  const fire = clock.fn!;
  const t2 = ns();
  fire(); // promotes all OPS near items, each O(log n) against the far ones
  const t3 = ns();
  q.shutDown();
  return { addAfter: (t1 - t0) / OPS, promote: (t3 - t2) / OPS };
}

/**
 * The floor for (b): a bare `Map.set` of the same keys into a map already holding `waiting` keys, an
 * O(1) operation whose cost still grows with size because a large table no longer fits in cache.
 */
function mapSetCost(waiting: number): number {
  const m = new Map<string, number>();
  for (let i = 0; i < waiting; i++) m.set(`far-${i}`, i);
  for (let i = 0; i < OPS; i++) m.set(`warm-${i}`, i);
  for (let i = 0; i < OPS; i++) m.delete(`warm-${i}`);
  const near = Array.from({ length: OPS }, (_, i) => `near-${i}`);
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = ns();
  for (let i = 0; i < OPS; i++) m.set(near[i]!, i);
  return (ns() - t0) / OPS;
}

/** Each pass adds every key at one of three priorities, re-adds half of them, then gets and finishes all; CPU µs per item. */
async function priorityCycles(q: PriorityQueue<string>, clock: ManualClock, passes: number): Promise<number> {
  const priorities = [-100, 0, 10];
  const c0 = process.cpuUsage();
  for (let p = 0; p < passes; p++) {
    for (let i = 0; i < KEYS.length; i++) q.addWithOpts({ priority: priorities[i % 3]! }, KEYS[i]!);
    for (let i = 0; i < KEYS.length; i += 2) q.addWithOpts({ priority: priorities[(i + 1) % 3]! }, KEYS[i]!);
    for (let i = 0; i < KEYS.length; i++) {
      clock.t += 1; // items age as they are served
      const r = await q.getWithPriority();
      q.done(r.item!);
    }
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / (passes * KEYS.length);
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

async function main(): Promise<void> {
  // (a) cycles: interleave the subjects so drift affects both alike.
  const ours: number[] = [];
  const bare: number[] = [];
  for (let r = 0; r < ROUNDS + 2; r++) {
    const a = await cycles(new Queue<string>(), 200);
    const b = await cycles(new BareQueue(), 200);
    if (r >= 2) {
      ours.push(a);
      bare.push(b);
    } // first rounds are JIT warm-up
  }
  const cyclesRatio = median(bare) / median(ours);
  console.log('(a) add+get+done cycles/s (1,000 keys, each added twice per pass; median of 7 rounds)');
  console.log(`    Queue                 ${fmt(median(ours)).padStart(12)}`);
  console.log(`    bare Map+array        ${fmt(median(bare)).padStart(12)}`);
  console.log(`    cost ratio Queue / bare: ${fmt(cyclesRatio, 2)}x (goal < 3x)`);

  // (b) O(log n) checks.
  const subjects: [string, (c: Clock) => DelayQueue][] = [
    ['DelayingQueue', (clock) => new DelayingQueue<string>({ clock })],
    ['PriorityQueue', (clock) => new PriorityQueue<string>({ clock })],
  ];
  console.log(`(b) per-op ns with 1,000 vs 100,000 items waiting (${OPS} ops; median of ${DELAY_ROUNDS} rounds)`);
  const mapCost: Record<number, number[]> = { 1000: [], 100_000: [] };
  for (let r = 0; r < DELAY_ROUNDS + 1; r++) {
    for (const n of [1000, 100_000]) {
      const c = mapSetCost(n);
      if (r > 0) mapCost[n]!.push(c);
    }
  }
  const mapSmall = median(mapCost[1000]!);
  const mapLarge = median(mapCost[100_000]!);
  const mapRatio = mapLarge / mapSmall;
  console.log(
    `    bare Map.set (O(1))      1k: ${fmt(mapSmall).padStart(6)} ns   100k: ${fmt(mapLarge).padStart(6)} ns   ratio ${fmt(mapRatio, 2)}x  (cache effects alone)`,
  );
  let worst = 0;
  for (const [name, make] of subjects) {
    const res: Record<number, { addAfter: number[]; promote: number[] }> = {};
    for (const n of [1000, 100_000]) res[n] = { addAfter: [], promote: [] };
    for (let r = 0; r < DELAY_ROUNDS + 1; r++) {
      for (const n of [1000, 100_000]) {
        const c = delayCosts(make, n, 17 + r);
        if (r === 0) continue; // warm-up
        res[n]!.addAfter.push(c.addAfter);
        res[n]!.promote.push(c.promote);
      }
    }
    for (const op of ['addAfter', 'promote'] as const) {
      const small = median(res[1000]![op]);
      const large = median(res[100_000]![op]);
      const ratio = large / small;
      worst = Math.max(worst, ratio);
      console.log(
        `    ${name.padEnd(14)} ${op.padEnd(9)} 1k: ${fmt(small).padStart(6)} ns   100k: ${fmt(large).padStart(6)} ns   ratio ${fmt(ratio, 2)}x`,
      );
    }
  }
  console.log(`    worst 100k/1k ratio: ${fmt(worst, 2)}x (goal < 3x); the bare Map.set alone: ${fmt(mapRatio, 2)}x`);
  console.log(`    worst ratio normalised by the Map.set ratio: ${fmt(worst / mapRatio, 2)}x (1x = grows no faster than a hash map)`);

  // (c) aging against the strict order, interleaved.
  const aged: number[] = [];
  const strict: number[] = [];
  for (let r = 0; r < ROUNDS + 2; r++) {
    const ca = new ManualClock();
    const a = await priorityCycles(new PriorityQueue<string>({ clock: ca }), ca, 100);
    const cs = new ManualClock();
    const b = await priorityCycles(new PriorityQueue<string>({ clock: cs, agingIntervalMs: Infinity }), cs, 100);
    if (r >= 2) {
      aged.push(a);
      strict.push(b);
    }
  }
  const agingRatio = median(aged) / median(strict);
  console.log(`(c) PriorityQueue add+get+done, CPU µs per item (1,000 keys over 3 priorities; median of ${ROUNDS} rounds)`);
  console.log(`    aged (default)        ${fmt(median(aged), 3).padStart(12)}`);
  console.log(`    strict (Infinity)     ${fmt(median(strict), 3).padStart(12)}`);
  console.log(`    CPU-time ratio aged / strict: ${fmt(agingRatio, 2)}x (goal < 1.2x)`);
  console.log(`ratio Queue/bare add+get+done: ${fmt(cyclesRatio, 2)}x`);
}

await main();
