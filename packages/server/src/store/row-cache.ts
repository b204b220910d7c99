/** The table of migration 0026 and its one row. */
export const ROW_EPOCH_TABLE = 'row_epochs';
export const ROW_EPOCH = 'cached_rows';

/** When the row epoch is read: the dialect's (see RowCache). */
export interface EpochSource {
  /**
   * The row epoch for a read that starts now, or undefined when memory may not answer it (a write
   * of this process not committed yet, the epoch unreadable): the read then goes to the database.
   */
  current(): number | undefined | Promise<number | undefined>;
}

/** A read whose rows are kept under the row epoch (RowCache.cached). */
export interface CachedRead<T> {
  /** The row, from memory while the epoch the source reads now is the one it was kept under. */
  (id: string): Promise<T | undefined>;
  /**
   * The same rows under an epoch the caller read itself, in a statement that began after the read
   * it serves did (PostgreSQL: the column of a refresh's locked read); on a miss `readNow` reads the
   * row (in the caller's transaction, say) and it is kept under that epoch.
   */
  under(id: string, epoch: number, readNow: (id: string) => Promise<T | undefined>): Promise<T | undefined>;
  /**
   * The row in the caller's own turn, where the epoch is known at once (SQLite): from memory, or read
   * by the `readAtOnce` it was made with; null when it must be waited for (no epoch, no `readAtOnce`,
   * a read of it under way, or `readAtOnce` answered null), and the call above then answers.
   */
  readonly atOnce: ReadAtOnce<T>;
}

/** A read answered in the caller's own turn; null when it must be waited for (store.ts `ReadsAtOnce`). */
export type ReadAtOnce<T> = (id: string) => T | undefined | null;

/**
 * Rows kept in memory between reads, for the reads that run outside transactions on the token and
 * API paths: every token request reads its client, every API request its grant's revocation and
 * subject. Each such read is a statement of its own (on SQLite with a read transaction whose locking
 * costs more than the lookup, a quarter of an API request's CPU time in the bench's profiles; on
 * PostgreSQL a round trip).
 *
 * A row is served from memory only while the store's row epoch (migration 0026, `row_epochs`) is
 * the one it was read under. Triggers advance the epoch in the same transaction as any change of a
 * client and any revocation, change of subject or deletion of a grant, made by any process. When
 * the epoch is read is the dialect's `EpochSource`: on SQLite once per event-loop turn and after
 * each write of this process (`sqlite/turn-epoch.ts`), on PostgreSQL once for the requests of each
 * turn, issued after they arrived (`postgres/batched-epoch.ts`). So a request sees every change
 * committed before it was read (SQLite: before the event-loop turn that read it began; PostgreSQL:
 * before it arrived), and every change this process made before answering an earlier request. An
 * epoch other than the last one seen empties every map, a row read before that is not kept, and a
 * row not found is never kept (an insert needs no epoch).
 *
 * The store keeps no OAuth rule here: it caches rows, not decisions.
 */
export class RowCache {
  readonly #source: EpochSource;
  readonly #maxRows: number;
  /** Every map of rows and of reads under way, emptied together when the epoch moves. */
  readonly #maps: Map<string, unknown>[] = [];
  #epoch: number | undefined;
  /** Advanced whenever the maps are emptied: a read begun before is not kept after. */
  #generation = 0;

  constructor(source: EpochSource, maxRows = 10_000) {
    this.#source = source;
    this.#maxRows = maxRows;
  }

  /**
   * `read` with its rows kept under the epoch, at most `maxRows` of them (the oldest forgotten
   * first). The rows are shared between callers: their types are readonly.
   */
  cached<T extends object>(read: (id: string) => Promise<T | undefined>, readAtOnce?: ReadAtOnce<T>): CachedRead<T> {
    const rows = new Map<string, T>();
    // The reads under way, so that the requests of one turn that miss the same row share one read.
    const reading = new Map<string, Promise<T | undefined>>();
    this.#maps.push(rows, reading);
    const kept = (id: string, epoch: number): T | undefined => {
      if (epoch !== this.#epoch) this.#moveTo(epoch);
      return rows.get(id);
    };
    const keep = (id: string, row: T | undefined): void => {
      if (row === undefined) return;
      if (rows.size >= this.#maxRows) rows.delete(rows.keys().next().value as string);
      rows.set(id, row);
    };
    const answer = (id: string, epoch: number | undefined): Promise<T | undefined> => {
      if (epoch === undefined) return read(id);
      const hit = kept(id, epoch);
      if (hit !== undefined) return Promise.resolve(hit);
      const shared = reading.get(id);
      if (shared !== undefined) return shared;
      const generation = this.#generation;
      const pending = read(id).then(
        (row) => {
          // Kept only if no other epoch was seen meanwhile: a row read under an older one may be stale.
          if (generation === this.#generation) {
            reading.delete(id);
            keep(id, row);
          }
          return row;
        },
        (error: unknown) => {
          if (generation === this.#generation) reading.delete(id);
          throw error;
        },
      );
      reading.set(id, pending);
      return pending;
    };
    const under = async (id: string, epoch: number, readNow: (id: string) => Promise<T | undefined>) => {
      const hit = kept(id, epoch);
      if (hit !== undefined) return hit;
      // Not shared with the reads under way: `readNow` may run in its caller's transaction.
      const generation = this.#generation;
      const row = await readNow(id);
      if (generation === this.#generation) keep(id, row);
      return row;
    };
    const atOnce = (id: string): T | undefined | null => {
      // Only a dialect that reads at once asks its epoch here (PostgreSQL's is a round trip).
      if (readAtOnce === undefined) return null;
      const epoch = this.#source.current();
      if (epoch === undefined || epoch instanceof Promise) return null;
      const hit = kept(id, epoch);
      if (hit !== undefined) return hit;
      if (reading.has(id)) return null;
      // Read and kept in this same turn: no other epoch can have been seen meanwhile.
      const row = readAtOnce(id);
      if (row !== null) keep(id, row);
      return row;
    };
    return Object.assign(
      (id: string) => {
        const epoch = this.#source.current();
        return epoch instanceof Promise ? epoch.then((e) => answer(id, e)) : answer(id, epoch);
      },
      { under, atOnce },
    );
  }

  #moveTo(epoch: number): void {
    this.#epoch = epoch;
    this.#generation++;
    for (const map of this.#maps) map.clear();
  }
}
