import type { PasskeyRepository, WebAuthnPurpose } from '../store/passkey-repository.js';

/** How long a ceremony's challenge may be answered, seconds (WebAuthn §13.4.3: short-lived). */
export const CHALLENGE_TTL = 5 * 60;

/** Why a challenge named in `clientDataJSON` was not accepted. */
export type ChallengeRefusal = 'challenge_unknown' | 'challenge_expired';

/**
 * Stores a challenge the server made for a ceremony, bound to the browser session that asked for it
 * and to its purpose (and user, where one is known). WebAuthn §13.4.3: the challenge is random,
 * generated and kept on the server, and checked against the one in `clientDataJSON`.
 */
export async function keepChallenge(
  store: PasskeyRepository,
  challenge: { readonly challenge: string; readonly sessionId: string; readonly purpose: WebAuthnPurpose },
  subject: string | null,
  now: number,
): Promise<void> {
  await store.deleteExpiredWebAuthnChallenges(now);
  await store.insertWebAuthnChallenge({ ...challenge, subject, expiresAt: now + CHALLENGE_TTL });
}

/**
 * Takes (deletes) the challenge a response answers: it must be one this session was given, for
 * this purpose and user, unexpired. Taken on the first try whatever follows, so that a response is
 * verified at most once (a replayed response finds no challenge).
 */
export async function takeChallenge(
  store: PasskeyRepository,
  challenge: string,
  expected: { readonly sessionId: string; readonly purpose: WebAuthnPurpose; readonly subject: string | null },
  now: number,
): Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: ChallengeRefusal }> {
  const kept = await store.takeWebAuthnChallenge(challenge, expected.sessionId);
  if (kept === undefined || kept.purpose !== expected.purpose || kept.subject !== expected.subject)
    return { ok: false, reason: 'challenge_unknown' };
  if (kept.expiresAt <= now) return { ok: false, reason: 'challenge_expired' };
  return { ok: true };
}
