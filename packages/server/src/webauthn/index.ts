/**
 * Passkeys (WebAuthn Level 3) with `@simplewebauthn/server`: the Relying Party derived from the
 * issuer, the ceremonies' options and their verification, over the store. No HTTP: the pages
 * (`authorize/passkey*.ts`) and the sign-in step (`authorize/sign-in/steps/passkey.ts`) call these.
 *
 * | file              | what                                                                     |
 * |-------------------|--------------------------------------------------------------------------|
 * | relying-party.ts  | RP ID and origin from the issuer (none for an IP-literal host)           |
 * | challenges.ts     | challenges: server-side, bound to a session, single-use, 5 minutes       |
 * | registration.ts   | enrolment (§7.1): options, verification, the credential stored          |
 * | authentication.ts | assertion (§7.2): options, verification, counter and backup flags, amr   |
 * | script.ts         | the page script (an asset: no inline script under the pages' CSP)        |
 */
export { relyingPartyOf, type RelyingParty } from './relying-party.js';
export { CHALLENGE_TTL } from './challenges.js';
export {
  enrolPasskey,
  verifyEnrolment,
  passkeyName,
  registrationOptions,
  userHandleOf,
  PASSKEY_NAME_MAX,
  type EnrolmentPurpose,
  type EnrolmentRefusal,
  type EnrolmentRequest,
  type EnrolmentResult,
  type PasskeyOwner,
} from './registration.js';
export {
  amrOfAssertion,
  authenticationOptions,
  verifyPasskeyAssertion,
  type AssertionRefusal,
  type AssertionResult,
  type AssertionUse,
  type PasskeyAmr,
} from './authentication.js';
export { PASSKEY_SCRIPT } from './script.js';
