import { randomBytes, scrypt, type BinaryLike, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { constantTimeEqual } from '../primitives/constant-time.js';

/**
 * User passwords, unlike the server's 256-bit opaque secrets, are guessable: they are stored with a
 * slow, memory-hard KDF. The parameters travel with each hash (`scrypt$N$r$p$salt$hash`), so they
 * can be raised later without invalidating stored hashes.
 */
interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * The cost of new hashes, as log2 of scrypt's N (PASSWORD_HASH_COST). The default, 15, is
 * 2^15 × 8 × 128 bytes = 32 MiB and some 50-100 ms per hash on a current core.
 */
export const DEFAULT_PASSWORD_HASH_COST = 15;
/** The costs PASSWORD_HASH_COST may name: 10 (1 MiB, for tests and development) to 20 (1 GiB). */
export const PASSWORD_HASH_COSTS = { min: 10, max: 20 } as const;

let newHashParams: ScryptParams = scryptParams(DEFAULT_PASSWORD_HASH_COST);

/** The cost of new hashes in this process (log2 of scrypt's N). */
export function passwordHashCost(): number {
  return Math.log2(newHashParams.N);
}

function scryptParams(cost: number): ScryptParams {
  return { N: 2 ** cost, r: 8, p: 1 };
}

/**
 * Sets the cost of the hashes made from now on in this process (the CLI applies PASSWORD_HASH_COST
 * once at start). Stored hashes keep the cost they were made with: each names its own parameters.
 */
export function usePasswordHashCost(cost: number): void {
  if (!Number.isInteger(cost) || cost < PASSWORD_HASH_COSTS.min || cost > PASSWORD_HASH_COSTS.max)
    throw new RangeError(
      `a password hash cost is ${PASSWORD_HASH_COSTS.min} to ${PASSWORD_HASH_COSTS.max}, got ${cost}`,
    );
  newHashParams = scryptParams(cost);
}
const SALT_BYTES = 16;
const KEY_BYTES = 32;
// Upper bounds on parameters read back from the store, so that a tampered row cannot ask for gigabytes.
const MAX_N = 2 ** PASSWORD_HASH_COSTS.max;
const MAX_R = 32;
const MAX_P = 16;

const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 1024;

/**
 * At most one derivation per core at a time. libuv's pool runs four by default, each holding its
 * 128·N·r bytes (32 MiB): on two cores the other two add no throughput, only 64 MiB of resident
 * memory under a burst of sign-ins (the bench's `sign-in` scenario measured 255 MB before).
 */
const DERIVATIONS_AT_ONCE = Math.max(1, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

async function oneAtATimePerCore<T>(work: () => Promise<T>): Promise<T> {
  if (running >= DERIVATIONS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  }
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return oneAtATimePerCore(() => deriveNow(password, salt, params));
}

function deriveNow(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // Node refuses when 128·N·r reaches maxmem (32 MiB by default): leave room above the need.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r };
  // NFC, so that the same password typed on two keyboards gives the same bytes.
  const input: BinaryLike = Buffer.from(password.normalize('NFC'), 'utf8');
  return new Promise((resolve, reject) => {
    scrypt(input, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string, params: ScryptParams = newHashParams): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; false for a malformed hash. Compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return constantTimeEqual(key, parsed.key);
}

function parseHash(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | undefined {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || salt === undefined || key === undefined) return undefined;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const powerOfTwo = Number.isInteger(params.N) && params.N > 1 && (params.N & (params.N - 1)) === 0;
  if (!powerOfTwo || params.N > MAX_N || !inRange(params.r, MAX_R) || !inRange(params.p, MAX_P)) return undefined;
  return { params, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

function inRange(n: number, max: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= max;
}

/** Why a new password is refused, or undefined when it is acceptable (NIST SP 800-63B §5.1.1: length, not composition). */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `the password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `the password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}

/** A strong password for an operator to hand over: 144 random bits, base64url (24 characters). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
