import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  type JsonWebKey as NodeJwk,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import type { SigningKeyRecord } from '../../primitives/records.js';
import type { Repository } from '../../store/repository.js';
import type { Clock } from '../../primitives/clock.js';
import { isSealed, privateJwkOf, type KeyEncryption } from './key-sealing.js';

/**
 * A new key is published at /jwks (at once: /jwks reads the store) this long before it signs, so
 * that verifiers which cache the key set (we allow 5 minutes) and every Gatehouse process (which
 * reloads every minute) know it first. OIDC Core §10.1.1 rotates keys by adding them to the JWK
 * Set; publishing one before it signs spares verifiers the refetch an unfamiliar kid costs.
 */
export const KEY_PUBLISH_DELAY = 10 * 60;
/** How often a process reloads the keys from the store. */
const KEY_RELOAD_INTERVAL_MS = 60_000;
// A token with an unknown kid triggers a reload, at most this often.
const UNKNOWN_KID_RELOAD_MS = 5_000;

/** The algorithms the ring signs with: ES256 for access tokens, RS256 or ES256 for ID tokens (OIDC Core §15.1). */
export type SigningAlg = SigningKeyRecord['alg'];
export const SIGNING_ALGS: readonly SigningAlg[] = ['ES256', 'RS256'];

interface SigningKey {
  readonly kid: string;
  readonly key: KeyObject;
}

interface LoadedKeys {
  readonly signing: SigningKey;
  /** The signing key of each algorithm (ES256 is also `signing`). */
  readonly signingByAlg: Readonly<Record<SigningAlg, SigningKey>>;
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
  #loadError: Error | undefined;
  #timer: NodeJS.Timeout | undefined;

  private constructor(store: Repository, clock: Clock, encryption: KeyEncryption | undefined, loaded: LoadedKeys) {
    this.#store = store;
    this.#clock = clock;
    this.#encryption = encryption;
    this.#loaded = loaded;
  }

  /**
   * Loads the keys, creating the first one of each algorithm (active at once) if the store has none. With an
   * `encryption` (KEY_ENCRYPTION_KEY), every private key still stored in plaintext is sealed first.
   */
  static async load(store: Repository, clock: Clock, encryption?: KeyEncryption): Promise<KeyRing> {
    if (encryption) await sealPlaintextKeys(store, encryption);
    const active = await activeKeys(store);
    // A store from before RS256 (OIDC Core §15.1) has ES256 keys only: its first RS256 key signs at once.
    const missing = SIGNING_ALGS.filter((alg) => !active.some((k) => k.alg === alg));
    const made = await Promise.all(missing.map((alg) => generateSigningKey(clock.now(), clock.now(), encryption, alg)));
    for (const key of made) await store.insertSigningKey(key);
    return new KeyRing(store, clock, encryption, await loadKeys(store, clock.now(), encryption));
  }

  /** The access tokens' key (ES256). */
  get signingKey(): SigningKey {
    return this.#loaded.signing;
  }

  /** The key that signs with `alg` now (ID tokens: RS256 by default, ES256 on request). */
  signingKeyFor(alg: SigningAlg): SigningKey {
    return this.#loaded.signingByAlg[alg];
  }

  /** What new keys are sealed under (KEY_ENCRYPTION_KEY); undefined when they are stored in plaintext. */
  get encryption(): KeyEncryption | undefined {
    return this.#encryption;
  }

  /** The public keys this process verifies with, as of its last load: every key not retired. */
  get jwks(): JSONWebKeySet {
    return this.#loaded.jwks;
  }

  /**
   * The public keys served at /jwks: every key not retired, including those not yet signing, read
   * from the store, so a key rotated in (or retired) by any process or by `gatehouse keys` is
   * published (or withdrawn) from the next request, not the next reload. When the store does not
   * answer, the keys of the last load: relying parties keep verifying through an outage.
   */
  async publishedJwks(): Promise<JSONWebKeySet> {
    try {
      return publicKeySet(await activeKeys(this.#store));
    } catch {
      return this.#loaded.jwks;
    }
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
    try {
      this.#loaded = await loadKeys(this.#store, this.#clock.now(), this.#encryption);
      this.#loadError = undefined;
    } catch (error) {
      this.#loadError = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  /** Why the last reload failed (the keys loaded before are still used); undefined once one succeeds. */
  get loadError(): Error | undefined {
    return this.#loadError;
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
  const byAlg = Object.fromEntries(
    SIGNING_ALGS.map((alg) => {
      const signing = chooseSigningKey(keys, now, alg);
      if (!signing) throw new Error(`no ${alg} signing key: every key is retired; run gatehouse keys rotate --now`);
      const key = createPrivateKey({
        key: privateJwkOf(signing.privateJwk, signing.kid, encryption) as NodeJwk,
        format: 'jwk',
      });
      return [alg, { kid: signing.kid, key }];
    }),
  ) as Record<SigningAlg, SigningKey>;
  return {
    signing: byAlg.ES256,
    signingByAlg: byAlg,
    jwks: publicKeySet(keys),
    byKid: new Map(keys.map((k) => [k.kid, createPublicKey({ key: k.publicJwk as NodeJwk, format: 'jwk' })])),
  };
}

/** RFC 7517 §5: the public halves, each with its kid, alg and use. */
function publicKeySet(keys: readonly SigningKeyRecord[]): JSONWebKeySet {
  return { keys: keys.map((k) => ({ ...k.publicJwk, kid: k.kid, alg: k.alg, use: 'sig' })) };
}

/**
 * The newest key of `alg` already active; before any is, the oldest one (a store's very first key). Ties are
 * broken by kid, so that every process picks the same key — two processes starting on an empty
 * store may each create a first key in the same second.
 */
export function chooseSigningKey(
  keys: readonly SigningKeyRecord[],
  now: number,
  alg: SigningAlg = 'ES256',
): SigningKeyRecord | undefined {
  const byActivation = keys
    .filter((k) => k.alg === alg)
    .sort((a, b) => a.activatesAt - b.activatesAt || (a.kid < b.kid ? -1 : 1));
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

const makeKeyPair = promisify(generateKeyPair);

/**
 * A new key, published from `now`, signing from `activatesAt`; sealed when given an `encryption`.
 * ES256: P-256; RS256: RSA 2048 (RFC 7518 §3.3 requires at least 2048 bits). Made on libuv's thread
 * pool: an RSA 2048 key's prime search takes 200–1,200 ms of CPU, which a rotation through the admin
 * API would otherwise take from every request its process serves meanwhile.
 */
export async function generateSigningKey(
  now: number,
  activatesAt = now + KEY_PUBLISH_DELAY,
  encryption?: KeyEncryption,
  alg: SigningAlg = 'ES256',
): Promise<SigningKeyRecord> {
  const { privateKey, publicKey } =
    alg === 'ES256'
      ? await makeKeyPair('ec', { namedCurve: 'P-256' })
      : await makeKeyPair('rsa', { modulusLength: 2048 });
  const publicJwk = publicKey.export({ format: 'jwk' });
  const kid = jwkThumbprint(publicJwk);
  const privateJwk = privateKey.export({ format: 'jwk' }) as JsonWebKey;
  return {
    kid,
    alg,
    privateJwk: encryption ? encryption.seal(privateJwk, kid) : privateJwk,
    publicJwk,
    createdAt: now,
    activatesAt,
    retiredAt: null,
  };
}

/** RFC 7638 §3.2 thumbprint of an EC or RSA public key: the required members in lexicographic order. */
function jwkThumbprint(jwk: { crv?: string; kty?: string; x?: string; y?: string; e?: string; n?: string }): string {
  const canonical =
    jwk.kty === 'RSA'
      ? JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })
      : JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}
