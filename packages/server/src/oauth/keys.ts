import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey as NodeJwk,
  type KeyObject,
} from 'node:crypto';
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import type { SigningKeyRecord } from '../primitives/records.js';
import type { Repository } from '../store/repository.js';
import type { Clock } from '../primitives/clock.js';
import { isSealed, privateJwkOf, type KeyEncryption } from './key-sealing.js';

/**
 * A new key is published at /jwks this long before it signs, so that verifiers which cache the key
 * set (we allow 5 minutes) and every Gatehouse process (which reloads every minute) know it first.
 */
export const KEY_PUBLISH_DELAY = 10 * 60;
/** How often a process reloads the keys from the store. */
const KEY_RELOAD_INTERVAL_MS = 60_000;
// A token with an unknown kid triggers a reload, at most this often.
const UNKNOWN_KID_RELOAD_MS = 5_000;

interface LoadedKeys {
  readonly signing: { readonly kid: string; readonly key: KeyObject };
  readonly jwks: JSONWebKeySet;
  /** Public keys by kid, imported once per load. */
  readonly byKid: ReadonlyMap<string, KeyObject>;
}

/**
 * The keys access tokens are signed and verified with. They live in the store, so every process
 * shares them; each process reloads them periodically and when it meets an unknown `kid`, so a
 * rotation needs no restart.
 */
export class KeyRing {
  readonly #store: Repository;
  readonly #clock: Clock;
  readonly #encryption: KeyEncryption | undefined;
  #loaded: LoadedKeys;
  #lastUnknownKidReload = 0;
  #timer: NodeJS.Timeout | undefined;

  private constructor(store: Repository, clock: Clock, encryption: KeyEncryption | undefined, loaded: LoadedKeys) {
    this.#store = store;
    this.#clock = clock;
    this.#encryption = encryption;
    this.#loaded = loaded;
  }

  /**
   * Loads the keys, creating the first one (active at once) if the store has none. With an
   * `encryption` (KEY_ENCRYPTION_KEY), every private key still stored in plaintext is sealed first.
   */
  static async load(store: Repository, clock: Clock, encryption?: KeyEncryption): Promise<KeyRing> {
    if (encryption) await sealPlaintextKeys(store, encryption);
    if ((await activeKeys(store)).length === 0)
      await store.insertSigningKey(generateSigningKey(clock.now(), clock.now(), encryption));
    return new KeyRing(store, clock, encryption, await loadKeys(store, clock.now(), encryption));
  }

  get signingKey(): { readonly kid: string; readonly key: KeyObject } {
    return this.#loaded.signing;
  }

  /** The public keys served at /jwks: every key not retired, including those not yet signing. */
  get jwks(): JSONWebKeySet {
    return this.#loaded.jwks;
  }

  /** jose's key lookup; an unknown kid reloads the keys once before giving up. */
  readonly verificationKey: JWTVerifyGetKey = async (header) => {
    let key = header.kid === undefined ? undefined : this.#loaded.byKid.get(header.kid);
    if (!key && Date.now() - this.#lastUnknownKidReload > UNKNOWN_KID_RELOAD_MS) {
      this.#lastUnknownKidReload = Date.now();
      await this.reload();
      key = header.kid === undefined ? undefined : this.#loaded.byKid.get(header.kid);
    }
    if (!key) throw new Error('no key with this kid');
    return key;
  };

  async reload(): Promise<void> {
    this.#loaded = await loadKeys(this.#store, this.#clock.now(), this.#encryption);
  }

  /** Reloads every KEY_RELOAD_INTERVAL_MS until stop(); a failed reload keeps the keys it had. */
  startReloading(intervalMs = KEY_RELOAD_INTERVAL_MS): void {
    this.#timer = setInterval(() => void this.reload().catch(() => {}), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

async function activeKeys(store: Repository): Promise<SigningKeyRecord[]> {
  return (await store.listSigningKeys()).filter((k) => k.retiredAt === null);
}

/** Seals every private key stored in plaintext (keys created before KEY_ENCRYPTION_KEY was set). */
export async function sealPlaintextKeys(store: Repository, encryption: KeyEncryption): Promise<string[]> {
  const plaintext = (await store.listSigningKeys()).filter((k) => !isSealed(k.privateJwk));
  for (const key of plaintext)
    await store.replaceSigningKeyPrivateJwk(key.kid, encryption.seal(key.privateJwk as JsonWebKey, key.kid));
  return plaintext.map((k) => k.kid);
}

async function loadKeys(store: Repository, now: number, encryption: KeyEncryption | undefined): Promise<LoadedKeys> {
  const keys = await activeKeys(store);
  const signing = chooseSigningKey(keys, now);
  if (!signing) throw new Error('no signing key: every key is retired; run gatehouse keys rotate --now');
  const published = keys.map((k) => ({ ...k.publicJwk, kid: k.kid, alg: k.alg, use: 'sig' }));
  return {
    signing: {
      kid: signing.kid,
      key: createPrivateKey({
        key: privateJwkOf(signing.privateJwk, signing.kid, encryption) as NodeJwk,
        format: 'jwk',
      }),
    },
    jwks: { keys: published },
    byKid: new Map(keys.map((k) => [k.kid, createPublicKey({ key: k.publicJwk as NodeJwk, format: 'jwk' })])),
  };
}

/**
 * The newest key already active; before any is, the oldest one (a store's very first key). Ties are
 * broken by kid, so that every process picks the same key — two processes starting on an empty
 * store may each create a first key in the same second.
 */
export function chooseSigningKey(keys: readonly SigningKeyRecord[], now: number): SigningKeyRecord | undefined {
  const byActivation = [...keys].sort((a, b) => a.activatesAt - b.activatesAt || (a.kid < b.kid ? -1 : 1));
  return byActivation.filter((k) => k.activatesAt <= now).at(-1) ?? byActivation[0];
}

/**
 * When a key rotated in now starts signing: after `delay`, and strictly after every key active by
 * then, so it wins the choice. A key still waiting to be published longer does not hold it back
 * (an emergency `--now` rotation signs at once).
 */
export function activationOfNextKey(existing: readonly SigningKeyRecord[], now: number, delay: number): number {
  const start = now + delay;
  return Math.max(start, ...existing.filter((k) => k.activatesAt <= start).map((k) => k.activatesAt + 1));
}

/** A new P-256 key, published from `now`, signing from `activatesAt`; sealed when given an `encryption`. */
export function generateSigningKey(
  now: number,
  activatesAt = now + KEY_PUBLISH_DELAY,
  encryption?: KeyEncryption,
): SigningKeyRecord {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicJwk = publicKey.export({ format: 'jwk' });
  const kid = jwkThumbprint(publicJwk);
  const privateJwk = privateKey.export({ format: 'jwk' }) as JsonWebKey;
  return {
    kid,
    alg: 'ES256',
    privateJwk: encryption ? encryption.seal(privateJwk, kid) : privateJwk,
    publicJwk,
    createdAt: now,
    activatesAt,
    retiredAt: null,
  };
}

/** RFC 7638 thumbprint of an EC public key: the required members in lexicographic order. */
function jwkThumbprint(jwk: { crv?: string; kty?: string; x?: string; y?: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}
