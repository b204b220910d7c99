import type { EpochSource } from '../row-cache.js';

/**
 * PostgreSQL's row epoch (../row-cache.ts): one read for the cached reads of each event-loop turn,
 * issued once the turn's requests have arrived (setImmediate), so that the epoch every request uses
 * was read after it arrived and a change committed before its arrival, by any process, is seen.
 * A turn's reads wait for that one round trip instead of making one each. The reads of several
 * turns may be in flight at once; a failed read lets memory answer nothing (the rows are read).
 */
export class BatchedEpoch implements EpochSource {
  readonly #read: () => Promise<number>;
  /** The read the reads of this turn wait for, not issued yet. */
  #next: Promise<number | undefined> | null = null;

  constructor(read: () => Promise<number>) {
    this.#read = read;
  }

  current(): Promise<number | undefined> {
    if (this.#next !== null) return this.#next;
    const next = new Promise<number | undefined>((resolve) => {
      setImmediate(() => {
        // Reads from here on wait for the next turn's epoch: this one may be older than they are.
        this.#next = null;
        this.#read().then(resolve, () => resolve(undefined));
      });
    });
    this.#next = next;
    return next;
  }
}
