import {
  checkDpopProof,
  DPOP_CLOCK_SKEW,
  DPOP_PROOF_LIFETIME,
  DPOP_SIGNING_ALGORITHMS,
  DpopNonceRequired,
  InvalidDpopProof,
  type CheckedDpopProof,
  type DpopStep,
} from '@gatehouse/contract';
import { dpopSignatureStep, sha256Base64url } from '@gatehouse/contract/node';
import type { DpopNonceOptions, DpopNonces } from './dpop-nonces.js';

/**
 * Notes a proof by its id until `expiresAt` (epoch seconds); false when noted before (a replay).
 * The default keeps them in this process's memory; an API run on several processes passes one over
 * a store they share (a unique insert, as the Gatehouse server does).
 */
export type DpopReplayCheck = (id: string, expiresAt: number) => boolean | Promise<boolean>;

export interface DpopOptions {
  /** The replay check of proofs' `jti` (RFC 9449 §11.1); one in memory by default. */
  readonly replay?: DpopReplayCheck;
  /**
   * Require server-provided nonces in proofs (RFC 9449 §9): a proof without this API's current
   * nonce is refused with 401 `use_dpop_nonce` and the nonce in `DPoP-Nonce`. `true`: a secret made
   * at start, so nonces of this process only; several nodes share a `secret`. Off by default.
   */
  readonly nonce?: DpopNonceOptions | true;
  /** The current time, epoch seconds (tests). */
  readonly now?: () => number;
}

/** How many clients' DPoP keys the kit keeps imported (@gatehouse/contract/node): one per client key in use. */
const DPOP_KEY_CACHE = 1024;

/** The current time in epoch seconds, the DpopOptions' clock or the system's. */
export function dpopClock(options: DpopOptions): () => number {
  return options.now ?? (() => Math.floor(Date.now() / 1000));
}

/** The kit's DPoP step of the contract's verifier (RFC 9449 §7.1), with server nonces when `nonces` is given (§9). */
export function dpopStep(options: DpopOptions, nonces: DpopNonces | undefined): DpopStep {
  const replay = options.replay ?? memoryReplayCheck();
  const now = dpopClock(options);
  // RFC 9449 §4.3 steps 2-7, as the server does them: node:crypto for the proofs SDKs write, jose for the rest.
  const signature = dpopSignatureStep(DPOP_KEY_CACHE);
  const athOf = tokenHashes(DPOP_KEY_CACHE);

  /** §4.3 step 10, §9, §11.1 of a proof that passed every other check. */
  function noted(checked: CheckedDpopProof, at: number): void | Promise<void> {
    // The nonce, before the jti is noted, so that a refused proof is not spent.
    if (nonces !== undefined && !nonces.accepts(checked.nonce, at)) throw new DpopNonceRequired(nonces.current(at));
    const id = sha256Base64url(`${checked.jkt}.${checked.jti}`);
    const fresh = replay(id, checked.iat + DPOP_PROOF_LIFETIME + DPOP_CLOCK_SKEW);
    if (fresh instanceof Promise) return fresh.then(refuseReplay);
    refuseReplay(fresh);
  }

  return {
    algorithms: DPOP_SIGNING_ALGORITHMS,
    // Synchronous for an SDK's proof with the default replay check: no promise on the request's path.
    check(proof, expected) {
      if (proof === undefined) throw new InvalidDpopProof('The request has no DPoP proof.');
      const at = now();
      const checked = checkDpopProof(
        proof,
        { method: expected.method, url: expected.url, accessToken: expected.accessToken, jkt: expected.jkt, now: at },
        signature,
        athOf,
      );
      return checked instanceof Promise ? checked.then((c) => noted(c, at)) : noted(checked, at);
    },
  };
}

function refuseReplay(fresh: boolean): void {
  if (!fresh) throw new InvalidDpopProof('The DPoP proof was used before (its jti is not new).');
}

/**
 * §4.3 step 12's `ath` input: the SHA-256 of an access token, base64url, kept for the last
 * `capacity` tokens. A client sends the same token with every proof; the verifier asks only after
 * the token verified (so the tokens kept are signed ones), and the hash is of the whole token as
 * presented, so every proof's `ath` is still compared with it.
 */
function tokenHashes(capacity: number): (token: string) => string {
  const hashes = new Map<string, string>();
  return (token) => {
    let hash = hashes.get(token);
    if (hash === undefined) {
      hash = sha256Base64url(token);
      if (hashes.size >= capacity) hashes.delete(hashes.keys().next().value as string);
      hashes.set(token, hash);
    }
    return hash;
  };
}

/**
 * The nonce to hand on with a successful answer (§8.2: the client uses it from its next request), or
 * undefined when the request's proof already carries the current one. The proof was verified
 * before this reads its payload.
 */
export function newerNonce(proof: string | undefined, nonces: DpopNonces, now: number): string | undefined {
  const current = nonces.current(now);
  return proof === undefined || nonceOf(proof) !== current ? current : undefined;
}

function nonceOf(proof: string): unknown {
  try {
    return (JSON.parse(Buffer.from(proof.split('.')[1] ?? '', 'base64url').toString('utf8')) as { nonce?: unknown })
      .nonce;
  } catch {
    return undefined;
  }
}

/**
 * Proofs seen by this process, each kept until its window closes: expired ones leave at most every
 * 10 s, and past `capacity` the oldest go, so the memory stays bounded.
 */
export function memoryReplayCheck(capacity = 100_000): DpopReplayCheck {
  const seen = new Map<string, number>();
  let sweptAt = 0;
  return (id, expiresAt) => {
    const now = Math.floor(Date.now() / 1000);
    if (now - sweptAt >= 10) {
      sweptAt = now;
      for (const [key, until] of seen) if (until < now) seen.delete(key);
    }
    if (seen.has(id)) return false;
    if (seen.size >= capacity) seen.delete(seen.keys().next().value as string);
    seen.set(id, expiresAt);
    return true;
  };
}
