import { isMultiFactorAmr } from '../../primitives/acr.js';
import type { AuthenticationMethodRecord, BrowserSessionRecord } from '../../store/identity-repository.js';

/**
 * Where a browser session stands in signing in. `pending`: a first factor passed and more are
 * required; such a session is signed in nowhere (no consent, no code, no account page). Each method
 * done is recorded with its time as an RFC 8176 §2 `amr` value; `authTime` is when the sign-in
 * completed, the ID token's `auth_time` (OIDC Core §2).
 */
export type SignInState =
  | { readonly status: 'anonymous' }
  | {
      readonly status: 'pending';
      readonly username: string;
      readonly methods: readonly AuthenticationMethodRecord[];
    }
  | {
      readonly status: 'signed_in';
      readonly username: string;
      readonly methods: readonly AuthenticationMethodRecord[];
      readonly authTime: number;
    };

export type PendingSignIn = Extract<SignInState, { status: 'pending' }>;
export type CompletedSignIn = Extract<SignInState, { status: 'signed_in' }>;

/** A browser session signed in as a user: not anonymous, not pending. */
export type SignedInSession = BrowserSessionRecord & { readonly username: string; readonly authenticatedAt: number };

/** The sign-in state a session holds. */
export function signInStateOf(session: BrowserSessionRecord): SignInState {
  if (session.username === null) return { status: 'anonymous' };
  const methods = session.methods ?? [];
  if (session.pending === true || session.authenticatedAt === null)
    return { status: 'pending', username: session.username, methods };
  return { status: 'signed_in', username: session.username, methods, authTime: session.authenticatedAt };
}

/** The session when it is signed in; undefined when anonymous or pending. */
export function signedInSession(session: BrowserSessionRecord | undefined): SignedInSession | undefined {
  if (session === undefined) return undefined;
  const state = signInStateOf(session);
  return state.status === 'signed_in'
    ? { ...session, username: state.username, authenticatedAt: state.authTime }
    : undefined;
}

/**
 * The ID token's `amr` (OIDC Core §2): each RFC 8176 value the session recorded, once, in order,
 * and `mfa` (§2: "Multiple-factor authentication") when they count two factors or more
 * (`isMultiFactorAmr`: a federated `fed` is not a factor beside the upstream's own values).
 */
export function amrOf(session: Pick<BrowserSessionRecord, 'methods'>): readonly string[] {
  const values = [...new Set((session.methods ?? []).map((m) => m.method))];
  return isMultiFactorAmr(values) && !values.includes('mfa') ? [...values, 'mfa'] : values;
}
