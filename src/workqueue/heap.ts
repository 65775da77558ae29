/**
 * Heap: a binary min-heap whose entries remember their position, so an entry already in the heap
 * can be re-ordered after its sort key changed (`update`) or taken out (`remove`) in O(log n).
 * Used for the delaying queue's waiting items and both orders of the priority queue.
 * Invariant: `less(parent, child)` or equality holds along every edge, and `entry.heapIndex` is
 * the entry's slot while it is in the heap (-1 once it left).
 */
export interface HeapEntry {
  heapIndex: number;
}

export class Heap<E extends HeapEntry> {
  readonly #a: E[] = [];
  readonly #less: (a: E, b: E) => boolean;

  /** `less` must be a strict total order for a deterministic result (break ties with a sequence number). */
  constructor(less: (a: E, b: E) => boolean) {
    this.#less = less;
  }

  get size(): number {
    return this.#a.length;
  }

  peek(): E | undefined {
    return this.#a[0];
  }

  push(e: E): void {
    e.heapIndex = this.#a.length;
    this.#a.push(e);
    this.#up(e.heapIndex);
  }

  pop(): E | undefined {
    const top = this.#a[0];
    if (top !== undefined) this.remove(top);
    return top;
  }

  /** Restores the order after `e`'s sort key changed in either direction. */
  update(e: E): void {
    if (!this.#up(e.heapIndex)) this.#down(e.heapIndex);
  }

  remove(e: E): void {
    const i = e.heapIndex;
    const last = this.#a.pop()!;
    e.heapIndex = -1;
    if (last === e) return;
    this.#a[i] = last;
    last.heapIndex = i;
    this.update(last);
  }

  /** Empties the heap. */
  clear(): void {
    for (const e of this.#a) e.heapIndex = -1;
    this.#a.length = 0;
  }

  /** Moves the entry at `i` up; returns whether it moved. */
  #up(i: number): boolean {
    const a = this.#a;
    const e = a[i]!;
    const start = i;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = a[p]!;
      if (!this.#less(e, parent)) break;
      a[i] = parent;
      parent.heapIndex = i;
      i = p;
    }
    a[i] = e;
    e.heapIndex = i;
    return i !== start;
  }

  #down(i: number): void {
    const a = this.#a;
    const n = a.length;
    const e = a[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.#less(a[r]!, a[l]!) ? r : l;
      const child = a[c]!;
      if (!this.#less(child, e)) break;
      a[i] = child;
      child.heapIndex = i;
      i = c;
    }
    a[i] = e;
    e.heapIndex = i;
  }
}
