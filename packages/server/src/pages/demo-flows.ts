import { randomBytes } from 'node:crypto';
import { s256 } from '../primitives/secrets.js';

/** The demo's public client (no secret; PKCE), whose requests `serve --demo` prints. */
export const DEMO_PUBLIC_CLIENT_ID = 'demo-public';

/** One authorization request `serve --demo` printed: its client and PKCE verifier, by its state. */
export interface DemoFlow {
  readonly clientId: string;
  readonly verifier: string;
}

/** Only the newest are kept: the demo prints one request per start. */
const KEPT = 32;

/**
 * The authorization requests `serve --demo` started (RFC 7636 §4.1-4.2: a fresh verifier and its
 * S256 challenge each), so that its /demo/callback page can print the exchange with the verifier
 * filled in. In the process's memory: nothing of it is stored.
 */
export class DemoFlows {
  readonly #byState = new Map<string, DemoFlow>();

  /** A new request for `clientId`: its state and PKCE pair, remembered. */
  start(clientId: string): { state: string; verifier: string; challenge: string } {
    const state = randomBytes(8).toString('hex');
    const verifier = randomBytes(32).toString('base64url');
    this.#byState.set(state, { clientId, verifier });
    for (const old of this.#byState.keys()) {
      if (this.#byState.size <= KEPT) break;
      this.#byState.delete(old);
    }
    return { state, verifier, challenge: s256(verifier) };
  }

  find(state: string): DemoFlow | undefined {
    return this.#byState.get(state);
  }
}
