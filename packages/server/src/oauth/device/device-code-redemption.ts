import type { FixedOAuthReason } from '@gatehouse/contract';
import type { ClientRecord, GrantRecord } from '../../primitives/records.js';
import { digestOf } from '../../primitives/secrets.js';
import type { DeviceAuthorizationRecord } from '../../store/device-repository.js';
import type { Store } from '../../store/store.js';
import { issueGrant } from '../tokens/index.js';
import { noteTokenProof, type UnnotedDpopProof } from '../sender-constraints/index.js';

/** RFC 8628 §3.5: every slow_down adds this to the interval, for that poll and every later one. */
export const SLOW_DOWN_STEP = 5;

type PollState =
  | { readonly kind: 'refused'; readonly reason: FixedOAuthReason }
  | { readonly kind: 'approved' | 'too_fast' | 'pending'; readonly authorization: DeviceAuthorizationRecord };

type PollOutcome =
  | {
      readonly ok: true;
      readonly grant: GrantRecord;
      readonly refreshToken: string | null;
      readonly authTime: number | null;
      readonly amr: readonly string[] | null;
    }
  | { readonly ok: false; readonly reason: FixedOAuthReason };

/**
 * What a poll of the token endpoint meets, by the authorization's state, in this precedence (the
 * first row that applies answers):
 *
 * | state                                 | answer                        | also                       |
 * |---------------------------------------|-------------------------------|----------------------------|
 * | no such device code                   | invalid_grant                 |                            |
 * | issued to another client              | invalid_grant                 |                            |
 * | redeemed                              | invalid_grant                 |                            |
 * | expired                               | expired_token (§3.5)          |                            |
 * | denied                                | access_denied (§3.5)          |                            |
 * | approved                              | tokens of a new grant         | redeemed, atomically       |
 * | pending, polled sooner than interval  | slow_down (§3.5)              | interval + 5 s from now on |
 * | pending                               | authorization_pending (§3.5)  | poll time recorded         |
 */
function pollState(authorization: DeviceAuthorizationRecord | undefined, client: ClientRecord, now: number): PollState {
  const refused = (reason: FixedOAuthReason): PollState => ({ kind: 'refused', reason });
  if (authorization === undefined) return refused('device_code_invalid');
  if (authorization.clientId !== client.id) return refused('device_code_client_mismatch');
  if (authorization.status === 'redeemed') return refused('device_code_used');
  if (now >= authorization.expiresAt) return refused('device_code_expired');
  if (authorization.status === 'denied') return refused('device_code_denied');
  if (authorization.status === 'approved') return { kind: 'approved', authorization };
  const { lastPolledAt, interval } = authorization;
  const tooFast = lastPolledAt !== null && now - lastPolledAt < interval;
  return { kind: tooFast ? 'too_fast' : 'pending', authorization };
}

/**
 * One poll with a device code (RFC 8628 §3.4), as one transaction. The row is read under lock and
 * the redeeming UPDATE is conditional, so of concurrent polls of an approved code exactly one
 * issues a grant, on SQLite and on PostgreSQL; a failed transaction consumes nothing.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.5 RFC 8628 §3.5
 */
export async function pollDeviceCode(
  store: Store,
  {
    deviceCode,
    client,
    now,
    dpop,
  }: { deviceCode: string; client: ClientRecord; now: number; dpop?: UnnotedDpopProof | undefined },
): Promise<PollOutcome> {
  return store.transaction(async (tx): Promise<PollOutcome> => {
    // RFC 9449 §11.1: the proof's jti, noted in this transaction (one commit); a replay changes nothing.
    if (dpop !== undefined) await noteTokenProof(tx, dpop);
    const state = pollState(await tx.findDeviceAuthorization(digestOf(deviceCode)), client, now);
    if (state.kind === 'refused') return { ok: false, reason: state.reason };
    const { authorization } = state;
    if (state.kind === 'too_fast') {
      await tx.recordDevicePoll(authorization.id, now, authorization.interval + SLOW_DOWN_STEP);
      return { ok: false, reason: 'device_polling_too_fast' };
    }
    if (state.kind === 'pending') {
      await tx.recordDevicePoll(authorization.id, now, authorization.interval);
      return { ok: false, reason: 'device_authorization_pending' };
    }
    if (!(await tx.redeemDeviceAuthorization(authorization.id))) return { ok: false, reason: 'device_code_used' };
    const subject = authorization.subject as string;
    const issued = await issueGrant(tx, client, subject, authorization.scope, now, dpop?.jkt);
    // Kept for the ID tokens of the grant's refreshes, whose auth_time is the approval's sign-in (OIDC Core §12.2).
    if (authorization.authTime !== null && authorization.scope.includes('openid'))
      await tx.insertGrantAuthentication(issued.grant.id, authorization.authTime, authorization.amr);
    return { ok: true, ...issued, authTime: authorization.authTime, amr: authorization.amr ?? null };
  });
}
