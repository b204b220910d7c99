import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { webauthnLibrary } from './library.js';
import type { PasskeyRecord, PasskeyRepository, WebAuthnPurpose } from '../store/passkey-repository.js';
import { keepChallenge, takeChallenge, type ChallengeRefusal } from './challenges.js';
import { summarizeResponse } from './client-data.js';
import type { RelyingParty } from './relying-party.js';

/** A passkey's name, as the user gave it: at most this many characters. */
export const PASSKEY_NAME_MAX = 64;

/** The user a passkey is made for. */
export interface PasskeyOwner {
  readonly subject: string;
  readonly username: string;
  readonly displayName: string;
}

/**
 * The user handle of a user's passkeys (WebAuthn §5.4.3): its opaque subject, never the username,
 * so that an authenticator holds no personal data beyond the names shown (§14.6.1).
 */
export function userHandleOf(subject: string): string {
  return Buffer.from(subject, 'utf8').toString('base64url');
}

/** A passkey added to an account (`register`), or made with an account on the sign-up form (`sign_up`). */
export type EnrolmentPurpose = Extract<WebAuthnPurpose, 'register' | 'sign_up'>;

/**
 * The options of `navigator.credentials.create()` (WebAuthn §5.4) for a user on the account page,
 * their challenge kept for this session and `purpose`. A discoverable credential (`residentKey: required`, so it
 * signs in without a username) with user verification required; no attestation is asked for (the
 * server trusts no particular maker); the user's passkeys are excluded so none is made twice.
 */
export async function registrationOptions(
  store: PasskeyRepository,
  rp: RelyingParty,
  owner: PasskeyOwner,
  sessionId: string,
  now: number,
  purpose: EnrolmentPurpose = 'register',
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await store.listPasskeys(owner.subject);
  const options = await (
    await webauthnLibrary()
  ).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: owner.username,
    userDisplayName: owner.displayName,
    userID: Buffer.from(owner.subject, 'utf8'),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    // ES256, EdDSA, RS256 (WebAuthn §5.4 pubKeyCredParams; the library's defaults).
    supportedAlgorithmIDs: [-7, -8, -257],
  });
  await keepChallenge(store, { challenge: options.challenge, sessionId, purpose }, owner.subject, now);
  return options;
}

/** Why a new passkey was refused; nothing is stored for any of them. */
export type EnrolmentRefusal =
  'malformed' | ChallengeRefusal | 'origin_mismatch' | 'verification_failed' | 'already_registered';

export type EnrolmentResult =
  { readonly ok: true; readonly passkey: PasskeyRecord } | { readonly ok: false; readonly reason: EnrolmentRefusal };

/** What an enrolment is asked with: the browser's answer to `registrationOptions` for `owner`. */
export interface EnrolmentRequest {
  readonly owner: PasskeyOwner;
  readonly sessionId: string;
  readonly response: string | undefined;
  readonly name: string | undefined;
  readonly now: number;
  /** What the challenge was kept for (`registrationOptions`); `register` when unsaid. */
  readonly purpose?: EnrolmentPurpose;
}

/**
 * Registers a new passkey from the browser's answer to `registrationOptions` (verifyEnrolment),
 * stored at once: the account page's enrolment, for a user that exists.
 */
export async function enrolPasskey(
  store: PasskeyRepository,
  rp: RelyingParty,
  request: EnrolmentRequest,
): Promise<EnrolmentResult> {
  const result = await verifyEnrolment(store, rp, request);
  if (result.ok) await store.insertPasskey(result.passkey);
  return result;
}

/**
 * Checks the browser's answer to `registrationOptions` (WebAuthn §7.1): the challenge this session
 * was given for this user, taken once; the origin and RP ID hash of the issuer; user presence and
 * user verification (§7.1 steps 14-15). The passkey it answers, with its counter and backup flags
 * (BE, BS: §6.1), is for the caller to store: at once (enrolPasskey), or with the account it is made
 * for, in one transaction (an invitation accepted with a passkey).
 */
export async function verifyEnrolment(
  store: PasskeyRepository,
  rp: RelyingParty,
  request: EnrolmentRequest,
): Promise<EnrolmentResult> {
  const { owner, sessionId, now } = request;
  const parsed = summarizeResponse(request.response);
  if (parsed === undefined) return { ok: false, reason: 'malformed' };
  const { summary } = parsed;
  const taken = await takeChallenge(
    store,
    summary.challenge,
    { sessionId, purpose: request.purpose ?? 'register', subject: owner.subject },
    now,
  );
  if (!taken.ok) return { ok: false, reason: taken.reason };
  // §7.1 step 9: the origin is the issuer's (checked again below; told apart here for the audit).
  if (summary.origin !== rp.origin) return { ok: false, reason: 'origin_mismatch' };
  let info;
  try {
    const verified = await (
      await webauthnLibrary()
    ).verifyRegistrationResponse({
      response: parsed.json as RegistrationResponseJSON,
      expectedChallenge: summary.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!verified.verified) return { ok: false, reason: 'verification_failed' };
    info = verified.registrationInfo;
  } catch {
    return { ok: false, reason: 'verification_failed' };
  }
  // §7.1 step 22: a credential id registered already (to anyone) is refused.
  if ((await store.findPasskey(info.credential.id)) !== undefined) return { ok: false, reason: 'already_registered' };
  const count = (await store.listPasskeys(owner.subject)).length;
  const passkey: PasskeyRecord = {
    id: info.credential.id,
    subject: owner.subject,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: (info.credential.transports ?? []).filter((t) => /^[a-z-]{1,16}$/.test(t)),
    backupEligible: info.credentialDeviceType === 'multiDevice',
    backedUp: info.credentialBackedUp,
    name: passkeyName(request.name) ?? `Passkey ${count + 1}`,
    createdAt: now,
    lastUsedAt: null,
  };
  return { ok: true, passkey };
}

/** A name as typed: trimmed, control characters dropped, at most PASSKEY_NAME_MAX characters; undefined when empty. */
export function passkeyName(typed: string | undefined): string | undefined {
  // eslint-disable-next-line no-control-regex
  const name = [...(typed ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim()].slice(0, PASSKEY_NAME_MAX).join('');
  return name === '' ? undefined : name;
}

type Transport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

export function transportsOf(passkey: Pick<PasskeyRecord, 'transports'>): Transport[] {
  return passkey.transports as Transport[];
}
