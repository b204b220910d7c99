import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The kinds of second factor stored in `second_factors`: one-time codes (RFC 6238). */
export type StoredFactorKind = 'otp';

/** A user's stored second factor; `secret` is sealed (factors/sealing.ts), never plaintext. */
export interface SecondFactorRecord {
  readonly subject: string;
  readonly kind: StoredFactorKind;
  readonly secret: string;
  /** The last RFC 6238 time step accepted; null before the first use. */
  readonly lastStep: number | null;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** The queries of second factors and recovery codes (0016); each write is one atomic statement. */
export interface FactorRepository {
  findSecondFactor(subject: string, kind: StoredFactorKind): Promise<SecondFactorRecord | undefined>;
  listSecondFactors(subject: string): Promise<SecondFactorRecord[]>;
  /** Inserts the factor unless the user has one of its kind; true when this call inserted it. */
  insertSecondFactorIfAbsent(factor: SecondFactorRecord): Promise<boolean>;
  /**
   * Records that a code of time step `step` was used, unless one of that step or a later one was
   * (RFC 6238 §5.2: a code is accepted once); true when this call recorded it. One conditional
   * UPDATE: of two requests with the same code, one wins.
   */
  useTimeStep(subject: string, kind: StoredFactorKind, step: number, now: number): Promise<boolean>;
  /** Deletes the user's second factors and recovery codes; how many factors it deleted. */
  deleteSecondFactors(subject: string): Promise<number>;

  /** Sets whether the user must enrol a second factor at its next sign-in. */
  setSecondFactorRequired(subject: string, required: boolean): Promise<void>;

  /** Replaces the user's recovery codes with these digests. */
  replaceRecoveryCodes(subject: string, digests: readonly string[], now: number): Promise<void>;
  /** Marks an unused code used; true when this call used it (one conditional UPDATE). */
  useRecoveryCode(subject: string, digest: string, now: number): Promise<boolean>;
  /** How many of the user's recovery codes are unused. */
  countRecoveryCodes(subject: string): Promise<number>;
}

function factorFromRow(r: {
  subject: string;
  kind: string;
  secret: string;
  last_step: number | null;
  created_at: number;
  last_used_at: number | null;
}): SecondFactorRecord {
  return {
    subject: r.subject,
    kind: r.kind as StoredFactorKind,
    secret: r.secret,
    lastStep: r.last_step === null ? null : Number(r.last_step),
    createdAt: Number(r.created_at),
    lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  };
}

export function createFactorRepository(db: Kysely<Database>): FactorRepository {
  return {
    async findSecondFactor(subject, kind) {
      const row = await db
        .selectFrom('second_factors')
        .selectAll()
        .where('subject', '=', subject)
        .where('kind', '=', kind)
        .executeTakeFirst();
      return row && factorFromRow(row);
    },
    async listSecondFactors(subject) {
      const rows = await db.selectFrom('second_factors').selectAll().where('subject', '=', subject).execute();
      return rows.map(factorFromRow);
    },
    async insertSecondFactorIfAbsent(f) {
      const result = await db
        .insertInto('second_factors')
        .values({
          subject: f.subject,
          kind: f.kind,
          secret: f.secret,
          last_step: f.lastStep,
          created_at: f.createdAt,
          last_used_at: f.lastUsedAt,
        })
        .onConflict((oc) => oc.columns(['subject', 'kind']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async useTimeStep(subject, kind, step, now) {
      const result = await db
        .updateTable('second_factors')
        .set({ last_step: step, last_used_at: now })
        .where('subject', '=', subject)
        .where('kind', '=', kind)
        .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async deleteSecondFactors(subject) {
      await db.deleteFrom('recovery_codes').where('subject', '=', subject).execute();
      const result = await db.deleteFrom('second_factors').where('subject', '=', subject).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async setSecondFactorRequired(subject, required) {
      await db
        .updateTable('users')
        .set({ second_factor_required: required ? 1 : 0 })
        .where('subject', '=', subject)
        .execute();
    },

    async replaceRecoveryCodes(subject, digests, now) {
      await db.deleteFrom('recovery_codes').where('subject', '=', subject).execute();
      if (digests.length === 0) return;
      await db
        .insertInto('recovery_codes')
        .values(digests.map((digest) => ({ subject, digest, created_at: now, used_at: null })))
        .execute();
    },
    async useRecoveryCode(subject, digest, now) {
      const result = await db
        .updateTable('recovery_codes')
        .set({ used_at: now })
        .where('subject', '=', subject)
        .where('digest', '=', digest)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async countRecoveryCodes(subject) {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('subject', '=', subject)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
