import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  accessTokenHash,
  checkDpopProof,
  DPOP_CLOCK_SKEW,
  DPOP_PROOF_LIFETIME,
  DpopNonceRequired,
  InvalidDpopProof,
  type CheckedDpopProof,
  type DpopExpectations,
  type DpopSignatureStep,
} from '@gatehouse/contract';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWK } from 'jose';
import type { Clock } from '../primitives/clock.js';
import type { Repository } from '../store/repository.js';

const NONCE_KEY = 'dpop_nonce_key';
/** A nonce is current for one slot and the next (RFC 9449 §8.2: the server decides its lifetime). */
const NONCE_SLOT = 300;
/** How often a process forgets the proofs whose window has closed: the replay table stays bounded. */
const PRUNE_EVERY = 60;

/**
 * RFC 9449 §4.3 steps 2-7 through jose: compact, `typ` dpop+jwt, `alg` in the allow-list, signed by
 * the public key of its own `jwk` header (jose's EmbeddedJWK refuses a private or symmetric key).
 */
export const joseDpopSignature: DpopSignatureStep = async (proof, algorithms) => {
  try {
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: [...algorithms],
    });
    const jkt = await calculateJwkThumbprint(protectedHeader.jwk as JWK, 'sha256');
    return { header: protectedHeader, payload, jkt };
  } catch (error) {
    throw new InvalidDpopProof(
      'The DPoP proof is not a JWS of typ dpop+jwt signed with an accepted algorithm by the public key of its jwk.',
      { cause: error },
    );
  }
};

/**
 * Server-provided nonces (RFC 9449 §8, §9) without state: the HMAC of a time slot under a key every
 * process sharing the store reads (migration 0021), so a nonce one node gives every node accepts.
 * A nonce is accepted during its slot and the next one.
 */
export class DpopNonces {
  readonly #key: Buffer;
  #slot = -1;
  #nonce = '';

  constructor(key: Buffer) {
    this.#key = key;
  }

  static async load(store: Pick<Repository, 'findServerSecret'>): Promise<DpopNonces> {
    const secret = await store.findServerSecret(NONCE_KEY);
    if (secret === undefined) throw new Error(`the store has no ${NONCE_KEY}: run gatehouse migrate`);
    return new DpopNonces(Buffer.from(secret, 'base64url'));
  }

  /** The nonce to give now (the `DPoP-Nonce` header). */
  current(now: number): string {
    const slot = Math.floor(now / NONCE_SLOT);
    if (slot !== this.#slot) {
      this.#nonce = this.#of(slot);
      this.#slot = slot;
    }
    return this.#nonce;
  }

  accepts(nonce: string | undefined, now: number): boolean {
    if (nonce === undefined) return false;
    const slot = Math.floor(now / NONCE_SLOT);
    return sameText(nonce, this.current(now)) || sameText(nonce, this.#of(slot - 1));
  }

  #of(slot: number): string {
    return createHmac('sha256', this.#key).update(`dpop-nonce.${slot}`).digest('base64url').slice(0, 32);
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

type ProofStore = Pick<Repository, 'noteDpopProof' | 'deleteExpiredDpopProofs'>;

/**
 * The server's DPoP proof check, for the token endpoint and its own resources: the contract's rules
 * (RFC 9449 §4.3), the nonce when the server requires one (§8, §9), and `jti` noted in the store so
 * that a proof is used once on every process (§11.1). Only a request that carries a proof pays for it.
 */
export class DpopProofs {
  readonly #store: ProofStore;
  readonly #clock: Clock;
  /** Undefined: nonces are not required (DPOP_NONCES=off). */
  readonly nonces: DpopNonces | undefined;
  #prunedAt = 0;

  constructor(store: ProofStore, clock: Clock, nonces: DpopNonces | undefined) {
    this.#store = store;
    this.#clock = clock;
    this.nonces = nonces;
  }

  /** Refuses with InvalidDpopProof or DpopNonceRequired; a missing proof is invalid. */
  async check(proof: string | undefined, expected: Omit<DpopExpectations, 'now'>): Promise<CheckedDpopProof> {
    if (proof === undefined) throw new InvalidDpopProof('The request has no DPoP proof.');
    const now = this.#clock.now();
    const checked = await checkDpopProof(proof, { ...expected, now }, joseDpopSignature, accessTokenHash);
    // §4.3 step 10: the nonce, checked before the jti is noted, so that the retry may use its own.
    if (this.nonces !== undefined && !this.nonces.accepts(checked.nonce, now))
      throw new DpopNonceRequired(this.nonces.current(now));
    await this.#prune(now);
    // §11.1: the id names the key too, so one client's jti cannot block another's.
    const id = createHash('sha256').update(`${checked.jkt}.${checked.jti}`).digest('base64url');
    const fresh = await this.#store.noteDpopProof(id, checked.iat + DPOP_PROOF_LIFETIME + DPOP_CLOCK_SKEW);
    if (!fresh) throw new InvalidDpopProof('The DPoP proof was used before (its jti is not new).');
    return checked;
  }

  async #prune(now: number): Promise<void> {
    if (now - this.#prunedAt < PRUNE_EVERY) return;
    this.#prunedAt = now;
    // An entry can go once a proof of its iat is refused by the window anyway.
    await this.#store.deleteExpiredDpopProofs(now - DPOP_CLOCK_SKEW);
  }
}
