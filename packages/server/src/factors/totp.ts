import { Secret, TOTP } from 'otpauth';

/**
 * One-time codes (TOTP, RFC 6238) with the parameters every authenticator app reads from an
 * `otpauth://` URI: HMAC-SHA-1, 6 digits, 30-second steps from the Unix epoch (RFC 6238 §4). The
 * arithmetic is `otpauth`'s; test/totp.test.ts pins the RFC 6238 Appendix B vectors, so a change of
 * library that computed other codes would fail there rather than lock users out.
 */
export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now (RFC 6238 §5.2: "at most one time step" of network delay). */
export const TOTP_WINDOW = 1;

/** A new secret: 160 random bits (RFC 4226 §4 R6 recommends 160), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI a QR code carries (the Key URI Format authenticator apps read). */
export function totpUri(secretBase32: string, issuer: string, account: string): string {
  return new TOTP({
    issuer,
    label: account,
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
  }).toString();
}

/** The RFC 6238 time step of `now` (epoch seconds): T = floor((now - T0) / X), T0 = 0. */
export function timeStepOf(now: number): number {
  return Math.floor(now / TOTP_PERIOD);
}

/**
 * The time step whose code `code` is, within ±`TOTP_WINDOW` steps of `now`; undefined when it is
 * none's. The caller refuses a step already used (RFC 6238 §5.2).
 */
export function matchTotp(secretBase32: string, code: string, now: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    timestamp: now * 1000,
    window: TOTP_WINDOW,
  });
  return delta === null ? undefined : timeStepOf(now) + delta;
}

/** The code of `secretBase32` at `now` (epoch seconds): for tests and the enrolment check. */
export function totpCode(secretBase32: string, now: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    timestamp: now * 1000,
  });
}
