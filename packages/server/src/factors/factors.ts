import type { Actor, AuditInput, AuditTrail } from '../audit/audit.js';
import type { Repository } from '../store/repository.js';
import type { SecondFactorRecord } from '../store/factor-repository.js';
import { newRecoveryCodes, recoveryCodeDigest, canonicalRecoveryCode } from './recovery-codes.js';
import type { FactorSealing } from './sealing.js';
import { matchTotp, newTotpSecret, totpUri } from './totp.js';

/**
 * A user's second factors as plain functions over the store: one-time codes (RFC 6238)
 * and recovery codes. No HTTP, no session. Secrets are sealed (sealing.ts) under a context naming
 * the user and the factor, so a sealed secret opens only on its own row.
 */

/** What the sign-in pipeline and the account page need besides the store. */
export interface FactorServices {
  readonly sealing: FactorSealing;
  /** The issuer, named in the authenticator app's entry. */
  readonly issuer: string;
}

const otpContext = (subject: string): string => `otp:${subject}`;
const enrolmentContext = (sessionId: string): string => `otp-enrolment:${sessionId}`;

/** A one-time-code factor being enrolled: the secret, and its sealed form the enrolment form carries. */
export interface OtpEnrolment {
  readonly secret: string;
  /** The secret sealed for this browser session only: the form's hidden field. */
  readonly sealed: string;
  /** The `otpauth://` URI of the QR code. */
  readonly uri: string;
}

/**
 * A new secret to enrol, bound to the browser session: nothing is stored until the user confirms
 * it with a code, so an enrolment left half-way leaves nothing behind.
 */
export function beginOtpEnrolment(services: FactorServices, sessionId: string, account: string): OtpEnrolment {
  const secret = newTotpSecret();
  const host = new URL(services.issuer).host;
  return {
    secret,
    sealed: services.sealing.seal(secret, enrolmentContext(sessionId)),
    uri: totpUri(secret, `Gatehouse (${host})`, account),
  };
}

/** The enrolment a form carries back, when it was sealed for this session; undefined otherwise. */
export function reopenOtpEnrolment(
  services: FactorServices,
  sessionId: string,
  sealed: string,
  account: string,
): OtpEnrolment | undefined {
  try {
    const secret = services.sealing.open(sealed, enrolmentContext(sessionId));
    const host = new URL(services.issuer).host;
    return { secret, sealed, uri: totpUri(secret, `Gatehouse (${host})`, account) };
  } catch {
    return undefined;
  }
}

export type EnrolmentOutcome =
  | { readonly ok: true; readonly recoveryCodes: readonly string[] }
  | { readonly ok: false; readonly reason: 'wrong_code' | 'already_enrolled' };

/**
 * Confirms an enrolment with a code of its secret (±1 step, RFC 6238 §5.2), then, in one
 * transaction: stores the secret sealed with that code's step as used (so the confirmation code
 * cannot sign in again), ten new recovery codes by digest, clears `second_factor_required`, and
 * audits `second_factor_enrolled` (and `audited`, an enrolment during a sign-in: its step passed).
 * A wrong code writes nothing; so does a user who already has one.
 */
export async function confirmOtpEnrolment(
  trail: AuditTrail,
  services: FactorServices,
  input: {
    readonly subject: string;
    readonly secret: string;
    readonly code: string;
    readonly now: number;
    readonly audited?: AuditInput;
  },
): Promise<EnrolmentOutcome> {
  const { subject, secret, code, now, audited } = input;
  const step = matchTotp(secret, code.trim(), now);
  if (step === undefined) return { ok: false, reason: 'wrong_code' };
  const recoveryCodes = newRecoveryCodes();
  const factor: SecondFactorRecord = {
    subject,
    kind: 'otp',
    secret: services.sealing.seal(secret, otpContext(subject)),
    lastStep: step,
    createdAt: now,
    lastUsedAt: now,
  };
  return trail.transaction(async (tx, audit) => {
    if (!(await tx.insertSecondFactorIfAbsent(factor))) return { ok: false, reason: 'already_enrolled' } as const;
    await tx.replaceRecoveryCodes(subject, recoveryCodes.map(recoveryCodeDigest), now);
    await tx.setSecondFactorRequired(subject, false);
    await audit({ event: 'second_factor_enrolled', at: now, subject, reason: 'otp' });
    if (audited) await audit(audited);
    return { ok: true, recoveryCodes } as const;
  });
}

export type CodeCheck = 'ok' | 'wrong_code' | 'code_replayed';

/**
 * Checks a one-time code of the user's enrolled secret: a code of a step within ±1 of now
 * (RFC 6238 §5.2), and of a step after the last one used, recorded atomically (one conditional
 * UPDATE: of two requests with the same code, or with an older one, one at most passes) with the
 * event `audited` in the same transaction. A wrong or replayed code writes nothing.
 */
export async function checkOneTimeCode(
  trail: AuditTrail,
  store: Repository,
  services: FactorServices,
  input: { readonly subject: string; readonly code: string; readonly now: number; readonly audited: AuditInput },
): Promise<CodeCheck> {
  const { subject, code, now, audited } = input;
  const factor = await store.findSecondFactor(subject, 'otp');
  if (!factor) return 'wrong_code';
  const step = matchTotp(services.sealing.open(factor.secret, otpContext(subject)), code.trim(), now);
  if (step === undefined) return 'wrong_code';
  return trail.transaction(async (tx, audit) => {
    if (!(await tx.useTimeStep(subject, 'otp', step, now))) return 'code_replayed' as const;
    await audit(audited);
    return 'ok' as const;
  });
}

/**
 * Uses one of the user's recovery codes: true when it was unused, marked used by one conditional
 * UPDATE in one transaction with the event `audited` (given how many are left). A wrong or used
 * code writes nothing.
 */
export async function useRecoveryCode(
  trail: AuditTrail,
  input: {
    readonly subject: string;
    readonly typed: string;
    readonly now: number;
    readonly audited: (left: number) => AuditInput;
  },
): Promise<boolean> {
  const { subject, typed, now, audited } = input;
  if (canonicalRecoveryCode(typed) === undefined) return false;
  return trail.transaction(async (tx, audit) => {
    if (!(await tx.useRecoveryCode(subject, recoveryCodeDigest(typed), now))) return false;
    await audit(audited(await tx.countRecoveryCodes(subject)));
    return true;
  });
}

/** Replaces the user's recovery codes with ten new ones, returned once; audited. */
export async function regenerateRecoveryCodes(trail: AuditTrail, subject: string, now: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await trail.transaction(async (tx, audit) => {
    await tx.replaceRecoveryCodes(subject, codes.map(recoveryCodeDigest), now);
    await audit({ event: 'recovery_codes_generated', at: now, subject });
  });
  return codes;
}

/** A user's second factors as the account page, the admin API and the CLI show them: no secret. */
export interface FactorSummary {
  readonly kind: 'otp' | 'recovery_codes' | 'passkey';
  /** Passkeys: the name the user gave it (never its public key). */
  readonly name?: string;
  readonly createdAt: number | null;
  readonly lastUsedAt: number | null;
  /** Recovery codes: how many are unused. */
  readonly remaining?: number;
}

/** A factor as the admin API and the CLI print it. */
export function describeFactor(f: FactorSummary): Record<string, unknown> {
  const time = (t: number | null) => (t === null ? null : new Date(t * 1000).toISOString());
  return {
    kind: f.kind,
    ...(f.name === undefined ? {} : { name: f.name }),
    created_at: time(f.createdAt),
    last_used_at: time(f.lastUsedAt),
    ...(f.remaining === undefined ? {} : { remaining: f.remaining }),
  };
}

export async function listFactors(store: Repository, subject: string): Promise<FactorSummary[]> {
  const factors: FactorSummary[] = (await store.listSecondFactors(subject)).map((f) => ({
    kind: f.kind,
    createdAt: f.createdAt,
    lastUsedAt: f.lastUsedAt,
  }));
  const remaining = await store.countRecoveryCodes(subject);
  if (factors.length > 0 || remaining > 0)
    factors.push({ kind: 'recovery_codes', createdAt: null, lastUsedAt: null, remaining });
  // Passkeys (webauthn/): by name and dates only; the public key is not the operator's business.
  for (const p of await store.listPasskeys(subject))
    factors.push({ kind: 'passkey', name: p.name, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt });
  return factors;
}

/**
 * Removes every second factor and recovery code of the user (an operator's reset, or the user's own
 * removal from the account page), signs it out of every browser when an operator resets, and
 * audits `second_factor_reset` with the actor. With `requireEnrolment`, the user enrols again at its
 * next sign-in.
 */
export async function resetFactors(
  trail: AuditTrail,
  user: { readonly username: string; readonly subject: string },
  input: { readonly now: number; readonly actor: Actor | null; readonly requireEnrolment: boolean },
): Promise<number> {
  const { now, actor, requireEnrolment } = input;
  return trail.transaction(async (tx, audit) => {
    let removed = await tx.deleteSecondFactors(user.subject);
    // An operator's reset removes the passkeys too (in this transaction, under this one audit
    // record): a user who lost its devices is left with its password only. The user's own
    // "Turn off" on the account page removes its authenticator app only; passkeys have their own list.
    if (actor !== null) removed += await tx.removePasskeysOf(user.subject);
    if (requireEnrolment) await tx.setSecondFactorRequired(user.subject, true);
    if (actor !== null) await tx.deleteBrowserSessionsOf(user.username);
    await audit({
      event: 'second_factor_reset',
      at: now,
      subject: user.subject,
      reason: actor === null ? 'removed_by_user' : 'reset_by_admin',
      actor: actor?.id ?? null,
    });
    return removed;
  });
}
