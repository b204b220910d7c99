import { newOpaqueSecret } from '../../primitives/random.js';
import { digestOf } from '../../primitives/secrets.js';
import type { RegistrationRepository } from '../../store/registration-repository.js';

/** An initial access token as issued: its plaintext exists only in this answer. */
export interface IssuedRegistrationToken {
  readonly initial_access_token: string;
  readonly expires_at: number;
  readonly uses: number;
}

/**
 * Issues an initial access token for client registration (RFC 7591 §3, "initial access token"):
 * valid for `ttl` seconds and for `uses` registrations, stored as a digest only.
 */
export async function issueRegistrationToken(
  store: RegistrationRepository,
  { ttl, uses, now }: { readonly ttl: number; readonly uses: number; readonly now: number },
): Promise<IssuedRegistrationToken> {
  const token = newOpaqueSecret();
  await store.insertRegistrationToken({
    id: digestOf(token),
    createdAt: now,
    expiresAt: now + ttl,
    maxUses: uses,
    uses: 0,
  });
  return { initial_access_token: token, expires_at: now + ttl, uses };
}
