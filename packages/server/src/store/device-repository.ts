import type { Kysely, Selectable } from 'kysely';
import { amrFromColumn, amrToColumn } from './rows.js';
import type { Database, DeviceAuthorizationsTable } from './schema.js';

/** Where a device authorization stands (RFC 8628 §3.3, §3.5). */
export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

/** One RFC 8628 device authorization; both codes only as SHA-256 digests. */
export interface DeviceAuthorizationRecord {
  /** SHA-256 of the device code, hex. */
  readonly id: string;
  readonly userCodeDigest: string;
  readonly clientId: string;
  readonly scope: readonly string[];
  readonly createdAt: number;
  readonly expiresAt: number;
  /** Seconds between polls, raised by every slow_down. */
  readonly interval: number;
  readonly lastPolledAt: number | null;
  readonly status: DeviceAuthorizationStatus;
  readonly subject: string | null;
  readonly authTime: number | null;
  /** How that user signed in (RFC 8176 `amr` values); absent or null with authTime. */
  readonly amr?: readonly string[] | null;
}

/** The user's answer on the device page. */
export type DeviceDecision =
  | {
      readonly status: 'approved';
      readonly subject: string;
      readonly authTime: number | null;
      readonly amr?: readonly string[] | null;
    }
  | { readonly status: 'denied'; readonly subject: string };

/** The queries of the device authorization grant. */
export interface DeviceRepository {
  insertDeviceAuthorization(record: DeviceAuthorizationRecord): Promise<void>;
  /** Forgets the authorizations that expired before `before`. */
  deleteExpiredDeviceAuthorizations(before: number): Promise<void>;
  /** By device code digest; locks the row for the transaction where the dialect needs it. */
  findDeviceAuthorization(id: string): Promise<DeviceAuthorizationRecord | undefined>;
  findDeviceAuthorizationByUserCode(userCodeDigest: string): Promise<DeviceAuthorizationRecord | undefined>;
  /** Records the user's decision on a pending, unexpired authorization; false when it was not one. */
  decideDeviceAuthorization(id: string, decision: DeviceDecision, now: number): Promise<boolean>;
  /** Records a poll and the interval from now on. */
  recordDevicePoll(id: string, polledAt: number, interval: number): Promise<void>;
  /**
   * Marks an approved authorization redeemed; false when it was not approved (any more). The
   * condition is in the UPDATE itself, so of concurrent redemptions exactly one wins.
   */
  redeemDeviceAuthorization(id: string): Promise<boolean>;
}

export function createDeviceRepository(db: Kysely<Database>, { lockRows }: { lockRows: boolean }): DeviceRepository {
  return {
    async insertDeviceAuthorization(r) {
      await db
        .insertInto('device_authorizations')
        .values({
          id: r.id,
          user_code_digest: r.userCodeDigest,
          client_id: r.clientId,
          scope: r.scope.join(' '),
          created_at: r.createdAt,
          expires_at: r.expiresAt,
          poll_interval: r.interval,
          last_polled_at: r.lastPolledAt,
          status: r.status,
          subject: r.subject,
          auth_time: r.authTime,
          amr: amrToColumn(r.amr),
        })
        .execute();
    },
    async deleteExpiredDeviceAuthorizations(before) {
      await db.deleteFrom('device_authorizations').where('expires_at', '<', before).execute();
    },
    async findDeviceAuthorization(id) {
      const row = await db
        .selectFrom('device_authorizations')
        .selectAll()
        .where('id', '=', id)
        .$if(lockRows, (q) => q.forUpdate())
        .executeTakeFirst();
      return row && fromRow(row);
    },
    async findDeviceAuthorizationByUserCode(userCodeDigest) {
      const row = await db
        .selectFrom('device_authorizations')
        .selectAll()
        .where('user_code_digest', '=', userCodeDigest)
        .executeTakeFirst();
      return row && fromRow(row);
    },
    async decideDeviceAuthorization(id, decision, now) {
      const result = await db
        .updateTable('device_authorizations')
        .set({
          status: decision.status,
          subject: decision.subject,
          auth_time: decision.status === 'approved' ? decision.authTime : null,
          amr: decision.status === 'approved' ? amrToColumn(decision.amr) : null,
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async recordDevicePoll(id, polledAt, interval) {
      await db
        .updateTable('device_authorizations')
        .set({ last_polled_at: polledAt, poll_interval: interval })
        .where('id', '=', id)
        .execute();
    },
    async redeemDeviceAuthorization(id) {
      const result = await db
        .updateTable('device_authorizations')
        .set({ status: 'redeemed' })
        .where('id', '=', id)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

function fromRow(r: Selectable<DeviceAuthorizationsTable>): DeviceAuthorizationRecord {
  return {
    id: r.id,
    userCodeDigest: r.user_code_digest,
    clientId: r.client_id,
    scope: r.scope === '' ? [] : r.scope.split(' '),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    interval: Number(r.poll_interval),
    lastPolledAt: r.last_polled_at === null ? null : Number(r.last_polled_at),
    status: r.status as DeviceAuthorizationStatus,
    subject: r.subject,
    authTime: r.auth_time === null ? null : Number(r.auth_time),
    amr: amrFromColumn(r.amr),
  };
}
