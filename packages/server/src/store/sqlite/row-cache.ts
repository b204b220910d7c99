/**
 * Rows kept in memory between reads, for the reads that run outside transactions on the token and
 * API paths: every token request reads its client, every API request its grant's revocation and
 * subject. Each such read is a statement with a read transaction of its own, whose locking costs
 * more than the lookup (a quarter of an API request's CPU time in the bench's profiles).
 *
 * A row is served from memory only while the file's row epoch (migration 0026, `row_epochs`) is the
 * one it was read under. Triggers advance the epoch in the same transaction as any change of a
 * client and any revocation, change of subject or deletion of a grant, made by this process or by
 * another one on the file (`gatehouse` commands, `serve --workers`). The epoch is read again:
 * - at the first cached read of each event-loop turn, so a change committed before the turn began
 *   is seen by every request answered in it, as if each had read its row at the turn's start;
 * - at the first cached read after any write of this process, so that a request sent after the
 *   answer to a revocation is refused even in the same turn.
 * A change read under another epoch empties every map; while a group commit is open (its writes
 * not yet committed), reads go to the database as before, and nothing is kept.
 *
 * The store keeps no OAuth rule here: it caches rows, not decisions. A row that was not found is not
 * kept (an insert needs no epoch).
 */
export class RowCache {
  readonly #readEpoch: () => number;
  readonly #writing: () => boolean;
  readonly #maxRows: number;
  readonly #maps: Map<string, unknown>[] = [];
  /** Whether the epoch was read since the turn began and since this process last wrote. */
  #current = false;
  #epoch: number | undefined;
  /** Advanced whenever the maps are emptied: a read begun before is not kept after. */
  #generation = 0;

  /**
   * `readEpoch` reads the row epoch (synchronously; it may throw, then the read goes to the
   * database); `writing` tells whether a transaction of this process is open on the connection.
   */
  constructor(options: { readEpoch: () => number; writing: () => boolean; maxRows?: number }) {
    this.#readEpoch = options.readEpoch;
    this.#writing = options.writing;
    this.#maxRows = options.maxRows ?? 10_000;
  }

  /** This process wrote: the next cached read reads the epoch first. */
  readonly wrote = (): void => {
    this.#current = false;
  };

  /**
   * `read` with its rows kept under the epoch, at most `maxRows` of them (the oldest forgotten
   * first). The rows are shared between callers: their types are readonly.
   */
  cached<T extends object>(read: (id: string) => Promise<T | undefined>): (id: string) => Promise<T | undefined> {
    const rows = new Map<string, T>();
    this.#maps.push(rows);
    return (id) => {
      if (!this.#fresh()) return read(id);
      const hit = rows.get(id);
      if (hit !== undefined) return Promise.resolve(hit);
      const generation = this.#generation;
      return read(id).then((row) => {
        // Kept only if no newer epoch was seen meanwhile: a row read under an older one may be stale.
        if (row !== undefined && generation === this.#generation) {
          if (rows.size >= this.#maxRows) rows.delete(rows.keys().next().value as string);
          rows.set(id, row);
        }
        return row;
      });
    };
  }

  /** Whether the maps may answer now: no transaction open, and the epoch read for this turn. */
  #fresh(): boolean {
    if (this.#writing()) return false;
    if (this.#current) return true;
    let epoch: number;
    try {
      epoch = this.#readEpoch();
    } catch {
      return false;
    }
    if (epoch !== this.#epoch) {
      this.#epoch = epoch;
      this.#generation++;
      for (const map of this.#maps) map.clear();
    }
    this.#current = true;
    // The epoch is read again in the next turn.
    setImmediate(this.wrote);
    return true;
  }
}
