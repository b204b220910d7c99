import { digestOf } from '../../primitives/secrets.js';
import { newOpaqueSecret } from '../../primitives/random.js';
import type { ClientRecord } from '../../primitives/records.js';
import type { DeviceAuthorizationRecord } from '../../store/device-repository.js';
import type { Repository } from '../../store/repository.js';
import { canonicalUserCode, newUserCode } from './user-codes.js';

/** How long the user has to enter the code and decide, seconds (RFC 8628 §3.2 `expires_in`). */
export const DEVICE_CODE_TTL = 600;
/** The polling interval a device starts with, seconds (RFC 8628 §3.2 default). */
export const DEVICE_POLL_INTERVAL = 5;
/** Expired authorizations are kept this long, so a late poll still hears expired_token (§3.5). */
const KEEP_EXPIRED = 24 * 60 * 60;
/** A new user code that is already in use is drawn again, at most this many times. */
const USER_CODE_DRAWS = 5;

export interface NewDeviceAuthorization {
  readonly deviceCode: string;
  readonly userCode: string;
  readonly expiresIn: number;
  readonly interval: number;
}

/**
 * Creates a device authorization (RFC 8628 §3.2): a 256-bit device code for the device and a short
 * user code for the person, both stored only as digests.
 */
export async function createDeviceAuthorization(
  store: Repository,
  { client, scope, now }: { client: ClientRecord; scope: readonly string[]; now: number },
): Promise<NewDeviceAuthorization> {
  await store.deleteExpiredDeviceAuthorizations(now - KEEP_EXPIRED);
  let userCode = newUserCode();
  // §6.1: user codes must be unique among the live ones; 20^8 codes make a clash rare, not impossible.
  for (let draw = 1; draw < USER_CODE_DRAWS; draw++) {
    if ((await store.findDeviceAuthorizationByUserCode(digestOf(userCode))) === undefined) break;
    userCode = newUserCode();
  }
  const deviceCode = newOpaqueSecret();
  const record: DeviceAuthorizationRecord = {
    id: digestOf(deviceCode),
    userCodeDigest: digestOf(userCode),
    clientId: client.id,
    scope,
    createdAt: now,
    expiresAt: now + DEVICE_CODE_TTL,
    interval: DEVICE_POLL_INTERVAL,
    lastPolledAt: null,
    status: 'pending',
    subject: null,
    authTime: null,
  };
  await store.insertDeviceAuthorization(record);
  return { deviceCode, userCode, expiresIn: DEVICE_CODE_TTL, interval: DEVICE_POLL_INTERVAL };
}

/** Why a typed user code names no pending authorization, for the audit trail. */
export type UserCodeRefusal = 'malformed' | 'unknown' | 'expired' | 'decided';

/**
 * The pending, unexpired authorization a typed user code names (RFC 8628 §3.3), with the code in
 * its canonical form; otherwise why not. The page answers every refusal alike, so that a guess
 * learns nothing but "no".
 */
export async function pendingDeviceAuthorization(
  store: Repository,
  typed: string,
  now: number,
): Promise<
  | { readonly ok: true; readonly authorization: DeviceAuthorizationRecord; readonly userCode: string }
  | { readonly ok: false; readonly refusal: UserCodeRefusal }
> {
  const userCode = canonicalUserCode(typed);
  if (userCode === undefined) return { ok: false, refusal: 'malformed' };
  const authorization = await store.findDeviceAuthorizationByUserCode(digestOf(userCode));
  if (authorization === undefined) return { ok: false, refusal: 'unknown' };
  if (now >= authorization.expiresAt) return { ok: false, refusal: 'expired' };
  if (authorization.status !== 'pending') return { ok: false, refusal: 'decided' };
  return { ok: true, authorization, userCode };
}
