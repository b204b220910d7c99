import {
  checkDpopProof,
  DPOP_CLOCK_SKEW,
  DPOP_PROOF_LIFETIME,
  DpopNonceRequired,
  InvalidDpopProof,
  OAuthError,
  type CheckedDpopProof,
  type DpopExpectations,
  type DpopSignatureStep,
} from '@gatehouse/contract';
import { dpopSignatureStep, sha256Base64url, SlotNonces } from '@gatehouse/contract/node';
import type { Clock } from '../../primitives/clock.js';
import type { Repository } from '../../store/repository.js';

const NONCE_KEY = 'dpop_nonce_key';
/** A nonce is current for one slot and the next (RFC 9449 §8.2: the server decides its lifetime). */
const NONCE_SLOT = 300;
/** How often a process forgets the proofs whose window has closed: the replay table stays bounded. */
const PRUNE_EVERY = 60;
/** How many clients' DPoP keys a process keeps imported (@gatehouse/contract/node). */
const KEY_CACHE_SIZE = 1024;

/**
 * Server-provided nonces (RFC 9449 §8, §9) under a key every process sharing the store reads
 * (migration 0021), so a nonce one node gives every node accepts (SlotNonces).
 */
export class DpopNonces extends SlotNonces {
  constructor(key: Buffer) {
    super(key, NONCE_SLOT, 'dpop-nonce.');
  }

  static async load(store: Pick<Repository, 'findServerSecret'>): Promise<DpopNonces> {
    const secret = await store.findServerSecret(NONCE_KEY);
    if (secret === undefined) throw new Error(`the store has no ${NONCE_KEY}: run gatehouse migrate`);
    return new DpopNonces(Buffer.from(secret, 'base64url'));
  }
}

type ProofStore = Pick<Repository, 'noteDpopProof' | 'deleteExpiredDpopProofs'>;

/**
 * A proof checked in everything but its `jti`, which the caller notes once (RFC 9449 §11.1) in the
 * transaction of its own writes with `noteTokenProof`: one commit for both, and a replayed proof
 * leaves those writes undone.
 */
export interface UnnotedDpopProof {
  readonly jkt: string;
  /** The replay table's key: a digest of key and `jti`, so one client's jti cannot block another's. */
  readonly replayId: string;
  /** Until when the proof must stay noted: past it, the iat window refuses the proof anyway. */
  readonly noteUntil: number;
}

/**
 * Notes a token request's proof as used (RFC 9449 §11.1) in `tx`, the transaction of the grant's
 * writes; a proof seen before, on any process, is refused with invalid_dpop_proof. Call it before
 * the grant's other writes, so that a replay writes nothing. On PostgreSQL a concurrent transaction
 * noting the same id waits for this one's outcome on the primary key; on SQLite the write lock orders them.
 */
export async function noteTokenProof(tx: Pick<Repository, 'noteDpopProof'>, proof: UnnotedDpopProof): Promise<void> {
  if (!(await tx.noteDpopProof(proof.replayId, proof.noteUntil))) throw new OAuthError('dpop_proof_invalid');
}

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
  readonly #signature: DpopSignatureStep = dpopSignatureStep(KEY_CACHE_SIZE);
  #prunedAt = 0;

  constructor(store: ProofStore, clock: Clock, nonces: DpopNonces | undefined) {
    this.#store = store;
    this.#clock = clock;
    this.nonces = nonces;
  }

  /** Refuses with InvalidDpopProof or DpopNonceRequired; a missing proof is invalid. Notes the jti on its own. */
  async check(proof: string | undefined, expected: Omit<DpopExpectations, 'now'>): Promise<CheckedDpopProof> {
    const { checked, unnoted } = await this.#verify(proof, expected);
    const fresh = await this.#store.noteDpopProof(unnoted.replayId, unnoted.noteUntil);
    if (!fresh) throw new InvalidDpopProof('The DPoP proof was used before (its jti is not new).');
    return checked;
  }

  /**
   * As `check`, but the jti is left for the caller to note with `noteTokenProof` in its own
   * transaction (the token endpoint's grants): no commit of its own.
   */
  async checkUnnoted(proof: string | undefined, expected: Omit<DpopExpectations, 'now'>): Promise<UnnotedDpopProof> {
    return (await this.#verify(proof, expected)).unnoted;
  }

  async #verify(
    proof: string | undefined,
    expected: Omit<DpopExpectations, 'now'>,
  ): Promise<{ checked: CheckedDpopProof; unnoted: UnnotedDpopProof }> {
    if (proof === undefined) throw new InvalidDpopProof('The request has no DPoP proof.');
    const now = this.#clock.now();
    const checked = await checkDpopProof(proof, { ...expected, now }, this.#signature, sha256Base64url);
    // §4.3 step 10: the nonce, checked before the jti is noted, so that the retry may use its own.
    if (this.nonces !== undefined && !this.nonces.accepts(checked.nonce, now))
      throw new DpopNonceRequired(this.nonces.current(now));
    await this.#prune(now);
    // §11.1: the id names the key too, so one client's jti cannot block another's.
    const replayId = sha256Base64url(`${checked.jkt}.${checked.jti}`);
    const noteUntil = checked.iat + DPOP_PROOF_LIFETIME + DPOP_CLOCK_SKEW;
    return { checked, unnoted: { jkt: checked.jkt, replayId, noteUntil } };
  }

  async #prune(now: number): Promise<void> {
    if (now - this.#prunedAt < PRUNE_EVERY) return;
    this.#prunedAt = now;
    // An entry can go once a proof of its iat is refused by the window anyway.
    await this.#store.deleteExpiredDpopProofs(now - DPOP_CLOCK_SKEW);
  }
}
