import type { ClientRecord } from '../primitives/records.js';
import type { BrowserSessionRecord } from '../store/identity-repository.js';
import type { ServerContext } from '../context.js';
import {
  pendingDue,
  requestPolicy,
  secondFactorDue,
  type RequiredActionSettings,
  type SecondFactorDue,
} from './sign-in/second-factor-policy.js';
import { signInStateOf } from './sign-in/state.js';
import type { SecondFactorPolicy } from '../primitives/records.js';

/** The second-factor policy of a request: the client's (else the server's), raised by `acr_values=mfa`. */
export function policyFor(
  context: Pick<ServerContext, 'signIn'>,
  client: Pick<ClientRecord, 'secondFactor'> | undefined,
  acrValues: readonly string[] = [],
): SecondFactorPolicy {
  return requestPolicy(context.signIn.secondFactor, client?.secondFactor, acrValues);
}

/**
 * What a session still needs before it may answer a request under `policy`: for a signed-in
 * session, a step-up (OIDC Core §3.1.2.1 `acr_values`, a client requiring a second factor) when it
 * did one factor only; for a pending one, the step it stopped at (a factor, the e-mail code, enrolment). `none` for an anonymous session
 * (it signs in from the start) or one that needs nothing more.
 */
export async function secondFactorDueFor(
  { store, accounts }: Pick<ServerContext, 'store' | 'accounts'>,
  session: BrowserSessionRecord,
  policy: SecondFactorPolicy,
): Promise<SecondFactorDue> {
  const state = signInStateOf(session);
  if (state.status === 'anonymous') return { kind: 'none' };
  const user = await store.findUser(state.username);
  if (!user) return { kind: 'none' };
  if (state.status === 'pending') return pendingDue(store, user, state.methods, requiredActionsOf(accounts), policy);
  return secondFactorDue(store, user, policy, state.methods);
}

/** The required actions every sign-in of this server asks (EMAIL_VERIFICATION=required, TERMS_URL and TERMS_VERSION). */
export function requiredActionsOf(accounts: ServerContext['accounts']): RequiredActionSettings {
  return {
    emailRequired: accounts.emailVerification === 'required',
    ...(accounts.terms ? { terms: accounts.terms } : {}),
  };
}
