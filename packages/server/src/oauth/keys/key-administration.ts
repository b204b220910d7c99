import type { Actor, AuditTrail } from '../../audit/audit.js';
import { OperatorInputError } from '../../primitives/operator-input-error.js';
import type { SigningKeyRecord } from '../../primitives/records.js';
import { isSealed, type KeyEncryption } from './key-sealing.js';
import { activationOfNextKey, chooseSigningKey, generateSigningKey, KEY_PUBLISH_DELAY, SIGNING_ALGS } from './keys.js';

/**
 * Rotation of the signing keys without downtime, shared by `gatehouse keys` and the admin API: a
 * rotated-in key is published at once and signs KEY_PUBLISH_DELAY later (at once with
 * `immediately`); retire the old key once the tokens it signed have expired.
 */

/** Adds one new key per algorithm (ES256 and RS256), so a rotation covers access and ID tokens alike. */
export async function rotateSigningKeys(
  trail: AuditTrail,
  now: number,
  options: { readonly immediately: boolean; readonly encryption: KeyEncryption | undefined },
  actor: Actor,
): Promise<SigningKeyRecord[]> {
  // Generated before the transaction: an RSA key takes a while, and the store's lock should not wait for it.
  const draft = await Promise.all(SIGNING_ALGS.map((alg) => generateSigningKey(now, now, options.encryption, alg)));
  return trail.transaction(async (tx, audit) => {
    const existing = (await tx.listSigningKeys()).filter((k) => k.retiredAt === null);
    // A store whose keys are sealed gets no plaintext key beside them.
    if (!options.encryption && existing.some((k) => isSealed(k.privateJwk)))
      throw new OperatorInputError('the stored keys are sealed: set KEY_ENCRYPTION_KEY to seal the new keys too');
    const activatesAt = activationOfNextKey(existing, now, options.immediately ? 0 : KEY_PUBLISH_DELAY);
    const keys = draft.map((key) => ({ ...key, activatesAt }));
    for (const key of keys) await tx.insertSigningKey(key);
    await audit({
      event: 'signing_keys_rotated',
      at: now,
      reason: keys.map((k) => k.kid).join(' '),
      actor: actor.id,
    });
    return keys;
  });
}

/**
 * Retires a key: no longer published or accepted. Refused while no other key of its algorithm
 * signs, or the servers would have none.
 */
export async function retireSigningKey(trail: AuditTrail, kid: string, now: number, actor: Actor): Promise<void> {
  await trail.transaction(async (tx, audit) => {
    const keys = (await tx.listSigningKeys()).filter((k) => k.retiredAt === null);
    const retiring = keys.find((k) => k.kid === kid);
    if (!retiring) throw new OperatorInputError(`no active key '${kid}'`, 'not_found');
    const successor = chooseSigningKey(
      keys.filter((k) => k.kid !== kid),
      now,
      retiring.alg,
    );
    if (!successor || successor.activatesAt > now)
      throw new OperatorInputError(
        `no other key signs yet; run gatehouse keys rotate and wait until it signs (or use --now) before retiring '${kid}'`,
      );
    await tx.retireSigningKey(kid, now);
    await audit({ event: 'signing_key_retired', at: now, reason: kid, actor: actor.id });
  });
}

/** The keys as operators see them, with the status of each at `at`. */
export function describeKeys(keys: readonly SigningKeyRecord[], at: number): Record<string, unknown>[] {
  const live = keys.filter((k) => k.retiredAt === null);
  const signing = new Set(SIGNING_ALGS.map((alg) => chooseSigningKey(live, at, alg)?.kid));
  return keys.map((k) => ({
    kid: k.kid,
    alg: k.alg,
    published_at: iso(k.createdAt),
    signs_from: iso(k.activatesAt),
    sealed: isSealed(k.privateJwk),
    retired_at: k.retiredAt === null ? null : iso(k.retiredAt),
    status:
      k.retiredAt !== null
        ? 'retired'
        : signing.has(k.kid)
          ? 'signing'
          : k.activatesAt > at
            ? 'published'
            : 'verifying',
  }));
}

const iso = (t: number): string => new Date(t * 1000).toISOString();
