import type { EpochSource } from '../row-cache.js';

/**
 * SQLite's row epoch (../row-cache.ts), read synchronously at the first cached read of each
 * event-loop turn and again at the first after any write of this process, so that a change
 * committed before the turn began is seen by every request answered in it, as if each had read its
 * row at the turn's start, and a request sent after the answer to a revocation made here is refused
 * even in the same turn. While a group commit is open (its writes not committed yet) memory does not
 * answer.
 */
export class TurnEpoch implements EpochSource {
  readonly #read: () => number;
  readonly #writing: () => boolean;
  /** The epoch read this turn and since this process last wrote; undefined: to be read. */
  #epoch: number | undefined;

  /** `read` reads the epoch (it may throw); `writing` tells whether a group commit is open. */
  constructor(read: () => number, writing: () => boolean) {
    this.#read = read;
    this.#writing = writing;
  }

  /** This process wrote (a committed batch, a Kysely statement): the next read reads the epoch first. */
  readonly wrote = (): void => {
    this.#epoch = undefined;
  };

  current(): number | undefined {
    if (this.#writing()) return undefined;
    if (this.#epoch !== undefined) return this.#epoch;
    try {
      this.#epoch = this.#read();
    } catch {
      return undefined;
    }
    // Read again in the next turn.
    setImmediate(this.wrote);
    return this.#epoch;
  }
}
