import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TOTP, Secret } from 'otpauth';
import { matchTotp, timeStepOf, totpCode, totpUri } from '../src/factors/totp.js';
import { canonicalRecoveryCode, newRecoveryCodes, recoveryCodeDigest } from '../src/factors/recovery-codes.js';
import { FactorSealing } from '../src/factors/sealing.js';

// RFC 6238 Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890".
const SEED = Secret.fromLatin1('12345678901234567890').base32;
const VECTORS: readonly [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('one-time codes (RFC 6238)', () => {
  test('the library computes the RFC 6238 Appendix B SHA-1 vectors (8 digits, 30 s steps)', () => {
    for (const [time, code] of VECTORS)
      assert.equal(
        TOTP.generate({
          secret: Secret.fromBase32(SEED),
          algorithm: 'SHA1',
          digits: 8,
          period: 30,
          timestamp: time * 1000,
        }),
        code,
        `T=${time}`,
      );
  });

  test('the six-digit codes users type are the same vectors truncated (RFC 4226 §5.3: mod 10^6)', () => {
    for (const [time, code] of VECTORS) assert.equal(totpCode(SEED, time), code.slice(2), `T=${time}`);
  });

  test('a code is accepted within ±1 step and answered with its step (RFC 6238 §5.2)', () => {
    const now = 1111111111;
    const step = timeStepOf(now);
    assert.equal(matchTotp(SEED, totpCode(SEED, now), now), step);
    assert.equal(matchTotp(SEED, totpCode(SEED, now - 30), now), step - 1);
    assert.equal(matchTotp(SEED, totpCode(SEED, now + 30), now), step + 1);
    assert.equal(matchTotp(SEED, totpCode(SEED, now - 60), now), undefined);
    assert.equal(matchTotp(SEED, totpCode(SEED, now + 60), now), undefined);
  });

  test('anything but six digits is no code', () => {
    for (const typed of ['', '12345', '1234567', 'abcdef', ' 12345', '１２３４５６'])
      assert.equal(matchTotp(SEED, typed, 59), undefined, JSON.stringify(typed));
  });

  test('the otpauth URI names the issuer, the account, SHA1, 6 digits and 30 s', () => {
    const uri = new URL(totpUri(SEED, 'Gatehouse (example.com)', 'ada'));
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.searchParams.get('secret'), SEED);
    assert.equal(uri.searchParams.get('algorithm'), 'SHA1');
    assert.equal(uri.searchParams.get('digits'), '6');
    assert.equal(uri.searchParams.get('period'), '30');
    assert.equal(uri.searchParams.get('issuer'), 'Gatehouse (example.com)');
  });
});

describe('recovery codes', () => {
  test('ten distinct codes, typed in any case with or without dashes, stored by digest', () => {
    const codes = newRecoveryCodes();
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    const [code] = codes as [string];
    assert.match(code, /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
    assert.equal(recoveryCodeDigest(code.toUpperCase().replaceAll('-', ' ')), recoveryCodeDigest(code));
    assert.equal(canonicalRecoveryCode('short'), undefined);
    assert.notEqual(recoveryCodeDigest(code), code);
  });
});

describe('factor secret sealing', () => {
  test('a sealed secret opens only in its own context, and holds no plaintext', () => {
    const sealing = new FactorSealing('a'.repeat(43), undefined);
    const sealed = sealing.seal(SEED, 'otp:subject-1');
    assert.ok(!sealed.includes(SEED));
    assert.equal(sealing.open(sealed, 'otp:subject-1'), SEED);
    assert.throws(() => sealing.open(sealed, 'otp:subject-2'));
  });

  test('secrets sealed before KEY_ENCRYPTION_KEY was set still open after; new ones use it', () => {
    const before = new FactorSealing('b'.repeat(43), undefined);
    const after = new FactorSealing('b'.repeat(43), 'k'.repeat(44));
    const old = before.seal(SEED, 'otp:s');
    assert.equal(after.open(old, 'otp:s'), SEED);
    assert.ok(after.underKeyEncryptionKey);
    const fresh = after.seal(SEED, 'otp:s');
    assert.throws(() => before.open(fresh, 'otp:s'), /key this server does not have/);
  });
});
