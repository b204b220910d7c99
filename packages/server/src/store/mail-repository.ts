import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MailOutboxTable } from './schema.js';

/**
 * The mail outbox (0027) as storage: rows, claims under a lease, and their ends. What is retried, when
 * and how often is the mail worker's business (mail/worker.ts); the store only keeps the row's state.
 */
export const MAIL_STATES = ['queued', 'sending', 'sent', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** A message as queued: its content already sealed. */
export interface OutboxInsert {
  readonly id: string;
  readonly kind: string;
  readonly recipient: string;
  /** The user the message is about, when one is. */
  readonly subject: string | null;
  readonly locale: string;
  readonly messageId: string;
  readonly content: string;
  readonly createdMs: number;
  readonly nextAttemptMs: number;
}

/** What is kept of a message: everything but its content. */
export interface MailMetadata {
  readonly id: string;
  readonly kind: string;
  readonly recipient: string;
  readonly subject: string | null;
  readonly locale: string;
  readonly messageId: string;
  readonly state: MailState;
  readonly attempts: number;
  readonly createdMs: number;
  readonly nextAttemptMs: number;
  readonly lastError: string | null;
  readonly finishedMs: number | null;
}

/** A message a worker claimed: its content (sealed) and the lease it holds it under. */
export interface ClaimedMail extends MailMetadata {
  /** Null when the row was finished meanwhile (never claimed so) or erased. */
  readonly content: string | null;
  readonly leaseToken: string;
  readonly leaseUntilMs: number;
}

export interface MailClaim {
  readonly now: number;
  readonly leaseToken: string;
  readonly leaseUntilMs: number;
  readonly limit: number;
  /** Only this message (when it is due): `gatehouse mail test` sends its own message and no other. */
  readonly only?: string;
}

export interface MailRepository {
  insertMail(message: OutboxInsert): Promise<void>;
  /**
   * Claims up to `limit` due messages (queued and due, or `sending` under a lease that has lapsed: its
   * node died), oldest due first, for the lease given, counting an attempt each. On PostgreSQL the rows
   * are locked `FOR UPDATE SKIP LOCKED`, so concurrent claims on several processes take different rows;
   * SQLite's write transaction serialises claims. Call it inside a transaction.
   */
  claimDueMail(claim: MailClaim): Promise<ClaimedMail[]>;
  /** Ends a claimed message as sent or failed for good, erasing its content; false when the lease is no longer this one. */
  finishMail(id: string, leaseToken: string, end: MailEnd): Promise<boolean>;
  /** Puts a claimed message back in the queue, due at `nextAttemptMs`; false when the lease is no longer this one. */
  requeueMail(id: string, leaseToken: string, nextAttemptMs: number, error: string): Promise<boolean>;
  /** Gives a claimed message back unsent (a stopping worker), due at once, its claim's attempt not counted. */
  releaseMail(id: string, leaseToken: string): Promise<boolean>;
  findMail(id: string): Promise<MailMetadata | undefined>;
  /** Messages not yet sent or failed (queued or sending) and when the oldest of them was queued. */
  mailQueue(): Promise<{ readonly waiting: number; readonly oldestCreatedMs: number | null }>;
  countMailByState(): Promise<Readonly<Record<MailState, number>>>;
  /** The newest `limit` messages that failed for good, newest first. */
  listFailedMail(limit: number): Promise<MailMetadata[]>;
}

export interface MailEnd {
  readonly state: 'sent' | 'failed';
  readonly at: number;
  readonly error: string | null;
}

function metadataFromRow(r: Selectable<MailOutboxTable>): MailMetadata {
  return {
    id: r.id,
    kind: r.kind,
    recipient: r.recipient,
    subject: r.subject,
    locale: r.locale,
    messageId: r.message_id,
    state: r.state as MailState,
    attempts: Number(r.attempts),
    createdMs: Number(r.created_ms),
    nextAttemptMs: Number(r.next_attempt_ms),
    lastError: r.last_error,
    finishedMs: r.finished_ms === null ? null : Number(r.finished_ms),
  };
}

/** `lockRows`: PostgreSQL's `FOR UPDATE SKIP LOCKED` in the claim; SQLite serialises writers instead. */
export function createMailRepository(db: Kysely<Database>, { lockRows }: { lockRows: boolean }): MailRepository {
  return {
    async insertMail(m) {
      await db
        .insertInto('mail_outbox')
        .values({
          id: m.id,
          kind: m.kind,
          recipient: m.recipient,
          subject: m.subject,
          locale: m.locale,
          message_id: m.messageId,
          content: m.content,
          state: 'queued',
          attempts: 0,
          created_ms: m.createdMs,
          next_attempt_ms: m.nextAttemptMs,
        })
        .execute();
    },
    async claimDueMail({ now, leaseToken, leaseUntilMs, limit, only }) {
      const due = db
        .selectFrom('mail_outbox')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'queued'), eb('next_attempt_ms', '<=', now)]),
            eb.and([eb('state', '=', 'sending'), eb('lease_until_ms', '<=', now)]),
          ]),
        )
        .$if(only !== undefined, (q) => q.where('id', '=', only as string))
        .orderBy('next_attempt_ms')
        .limit(limit)
        .$if(lockRows, (q) => q.forUpdate().skipLocked());
      const rows = await db
        .updateTable('mail_outbox')
        .set({
          state: 'sending',
          lease_token: leaseToken,
          lease_until_ms: leaseUntilMs,
          attempts: sql<number>`attempts + 1`,
        })
        .where('id', 'in', due)
        .returningAll()
        .execute();
      return rows
        .map((r) => ({ ...metadataFromRow(r), content: r.content, leaseToken, leaseUntilMs }))
        .sort((a, b) => a.nextAttemptMs - b.nextAttemptMs || (a.id < b.id ? -1 : 1));
    },
    async finishMail(id, leaseToken, { state, at, error }) {
      const result = await db
        .updateTable('mail_outbox')
        .set({ state, content: null, lease_token: null, lease_until_ms: null, finished_ms: at, last_error: error })
        .where('id', '=', id)
        .where('lease_token', '=', leaseToken)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async requeueMail(id, leaseToken, nextAttemptMs, error) {
      const result = await db
        .updateTable('mail_outbox')
        .set({
          state: 'queued',
          next_attempt_ms: nextAttemptMs,
          lease_token: null,
          lease_until_ms: null,
          last_error: error,
        })
        .where('id', '=', id)
        .where('lease_token', '=', leaseToken)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async releaseMail(id, leaseToken) {
      const result = await db
        .updateTable('mail_outbox')
        .set({ state: 'queued', attempts: sql<number>`attempts - 1`, lease_token: null, lease_until_ms: null })
        .where('id', '=', id)
        .where('lease_token', '=', leaseToken)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async findMail(id) {
      const row = await db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
      return row && metadataFromRow(row);
    },
    async mailQueue() {
      const row = await db
        .selectFrom('mail_outbox')
        .select((eb) => [eb.fn.countAll<string | number>().as('waiting'), eb.fn.min('created_ms').as('oldest')])
        .where('state', 'in', ['queued', 'sending'])
        .executeTakeFirstOrThrow();
      return { waiting: Number(row.waiting), oldestCreatedMs: row.oldest === null ? null : Number(row.oldest) };
    },
    async countMailByState() {
      const rows = await db
        .selectFrom('mail_outbox')
        .select((eb) => ['state', eb.fn.countAll<string | number>().as('count')])
        .groupBy('state')
        .execute();
      const counts = Object.fromEntries(MAIL_STATES.map((state) => [state, 0])) as Record<MailState, number>;
      for (const row of rows) if (row.state in counts) counts[row.state as MailState] = Number(row.count);
      return counts;
    },
    async listFailedMail(limit) {
      const rows = await db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('state', '=', 'failed')
        .orderBy('finished_ms', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(metadataFromRow);
    },
  };
}
