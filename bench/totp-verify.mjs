// TOTP verification cost per sign-in: a quick loop, not a benchmark of the server.
// What a second-factor step costs beyond its two store statements: opening the sealed secret
// (AES-256-GCM) and checking a code against ±1 step (three HMAC-SHA-1). Run after `npm run build`:
//   node bench/totp-verify.mjs
import { FactorSealing } from '../packages/server/dist/factors/sealing.js';
import { matchTotp, newTotpSecret, totpCode } from '../packages/server/dist/factors/totp.js';

const N = Number(process.env.N ?? 20000);
const sealing = new FactorSealing('x'.repeat(43), undefined);
const secret = newTotpSecret();
const sealed = sealing.seal(secret, 'otp:subject');
const now = Math.floor(Date.now() / 1000);
const right = totpCode(secret, now);
const wrong = String((Number(right) + 1) % 1e6).padStart(6, '0');

function measure(label, work) {
  for (let i = 0; i < 1000; i++) work();
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) work();
  const micros = Number(process.hrtime.bigint() - start) / 1000 / N;
  console.log(`${label.padEnd(44)} ${micros.toFixed(1)} µs`);
}

measure('open the sealed secret', () => sealing.open(sealed, 'otp:subject'));
measure('match a right code (±1 step)', () => matchTotp(secret, right, now));
measure('match a wrong code (3 steps tried)', () => matchTotp(secret, wrong, now));
measure('open + match (one verification)', () => matchTotp(sealing.open(sealed, 'otp:subject'), right, now));
