import { randomBytes } from 'node:crypto';
import { s256 } from '../primitives/secrets.js';

/** The demo's public client (no secret; PKCE), whose requests `serve --demo` prints. */
export const DEMO_PUBLIC_CLIENT_ID = 'demo-public';

/** One authorization request `serve --demo` printed: its client and PKCE verifier, by its state. */
export interface DemoFlow {
  readonly clientId: string;
  readonly verifier: string;
  /** An OpenID Connect request's nonce (OIDC Core §3.1.2.1); /demo/callback then exchanges the code itself. */
  readonly nonce?: string;
}

/** What /demo/callback's own code exchange of an OpenID Connect request got: the token response, or the refusal. */
export type DemoExchange =
  | {
      readonly ok: true;
      readonly claims: Readonly<Record<string, unknown>>;
      readonly scope: string;
      readonly accessToken: string;
    }
  | { readonly ok: false; readonly error: string; readonly description: string };

/** Only the newest are kept: the demo prints a few requests per start. */
const KEPT = 32;

/**
 * The authorization requests `serve --demo` started (RFC 7636 §4.1-4.2: a fresh verifier and its
 * S256 challenge each), so that its /demo/callback page can print the exchange with the verifier
 * filled in, or, for an OpenID Connect request, make it and keep what it got (a reload shows it
 * again rather than presenting the code twice, which would revoke the grant: RFC 6749 §4.1.2). In
 * the process's memory: nothing of it is stored.
 */
export class DemoFlows {
  readonly #byState = new Map<string, DemoFlow>();
  /** By code: the exchanges /demo/callback made, each once. */
  readonly #exchanges = new Map<string, Promise<DemoExchange>>();

  /** A new request for `clientId`: its state and PKCE pair (and nonce, for OpenID Connect), remembered. */
  start(
    clientId: string,
    options: { readonly openid?: boolean } = {},
  ): { state: string; verifier: string; challenge: string; nonce?: string } {
    const state = randomBytes(8).toString('hex');
    const verifier = randomBytes(32).toString('base64url');
    const nonce = options.openid ? randomBytes(16).toString('base64url') : undefined;
    this.#byState.set(state, { clientId, verifier, ...(nonce === undefined ? {} : { nonce }) });
    for (const old of this.#byState.keys()) {
      if (this.#byState.size <= KEPT) break;
      this.#byState.delete(old);
    }
    return { state, verifier, challenge: s256(verifier), ...(nonce === undefined ? {} : { nonce }) };
  }

  find(state: string): DemoFlow | undefined {
    return this.#byState.get(state);
  }

  /**
   * The exchange of `code`, made once: a reload of the page, or a second request at the same time,
   * gets the same answer. `exchange` answers refusals as values; it does not throw.
   */
  exchangeOnce(code: string, exchange: () => Promise<DemoExchange>): Promise<DemoExchange> {
    const known = this.#exchanges.get(code);
    if (known) return known;
    const started = exchange();
    this.#exchanges.set(code, started);
    for (const old of this.#exchanges.keys()) {
      if (this.#exchanges.size <= KEPT) break;
      this.#exchanges.delete(old);
    }
    return started;
  }
}
