import { createHash } from 'node:crypto';
import {
  accessTokenHash,
  checkDpopProof,
  DPOP_CLOCK_SKEW,
  DPOP_PROOF_LIFETIME,
  DPOP_SIGNING_ALGORITHMS,
  InvalidDpopProof,
  type DpopSignatureStep,
  type DpopStep,
} from '@gatehouse/contract';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWK } from 'jose';

/**
 * Notes a proof by its id until `expiresAt` (epoch seconds); false when noted before (a replay).
 * The default keeps them in this process's memory; an API run on several processes passes one over
 * a store they share (a unique insert, as the Gatehouse server does).
 */
export type DpopReplayCheck = (id: string, expiresAt: number) => boolean | Promise<boolean>;

export interface DpopOptions {
  /** The replay check of proofs' `jti` (RFC 9449 §11.1); one in memory by default. */
  readonly replay?: DpopReplayCheck;
  /** The current time, epoch seconds (tests). */
  readonly now?: () => number;
}

/** RFC 9449 §4.3 steps 2-7 through jose, as the server does them. */
const joseSignature: DpopSignatureStep = async (proof, algorithms) => {
  try {
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: [...algorithms],
    });
    return { header: protectedHeader, payload, jkt: await calculateJwkThumbprint(protectedHeader.jwk as JWK) };
  } catch (error) {
    throw new InvalidDpopProof(
      'The DPoP proof is not a JWS of typ dpop+jwt signed with an accepted algorithm by the public key of its jwk.',
      { cause: error },
    );
  }
};

/** The kit's DPoP step of the contract's verifier (RFC 9449 §7.1). */
export function dpopStep(options: DpopOptions = {}): DpopStep {
  const replay = options.replay ?? memoryReplayCheck();
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return {
    algorithms: DPOP_SIGNING_ALGORITHMS,
    async check(proof, expected) {
      if (proof === undefined) throw new InvalidDpopProof('The request has no DPoP proof.');
      const checked = await checkDpopProof(proof, { ...expected, now: now() }, joseSignature, accessTokenHash);
      const id = createHash('sha256').update(`${checked.jkt}.${checked.jti}`).digest('base64url');
      if (!(await replay(id, checked.iat + DPOP_PROOF_LIFETIME + DPOP_CLOCK_SKEW)))
        throw new InvalidDpopProof('The DPoP proof was used before (its jti is not new).');
    },
  };
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
