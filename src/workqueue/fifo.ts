/**
 * Fifo: the ordered list behind the plain queue, an array read from a moving head so that both
 * `push` and `shift` are O(1) amortised (`Array.prototype.shift` is O(n) on large arrays).
 * Invariant: items come out in the order they went in; consumed slots are released in bulk once
 * they make up at least half of the backing array.
 */
export class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** Removes and returns the oldest item, or undefined when empty. */
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined; // drop the reference so the item can be collected
    if (this.#head === this.#items.length) {
      this.#items.length = 0;
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}
