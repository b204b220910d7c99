import type { BrowserSessionRecord } from '../store/identity-repository.js';
import { authenticationOptions, relyingPartyOf } from '../webauthn/index.js';
import type { AuthorizePages } from './flow.js';
import type { FormParams } from '../http/form.js';
import { summarizeResponse } from '../webauthn/client-data.js';

/**
 * The request options of the sign-in page's passkey form (passwordless, user verification
 * required), their challenge kept for this session; undefined when the server offers no passkeys
 * (an IP-literal issuer) or the session is pending.
 */
export async function passkeySignInOptions(
  { context: { issuer, store, clock } }: AuthorizePages,
  session: BrowserSessionRecord,
): Promise<string | undefined> {
  const rp = relyingPartyOf(issuer);
  if (rp === undefined || session.pending === true) return undefined;
  return JSON.stringify(await authenticationOptions(store, rp, { kind: 'passwordless' }, session.id, clock.now()));
}

/**
 * The request options of the factor page's passkey form (a second factor after a password): the
 * pending session's user's passkeys only, the challenge kept for this session and that user;
 * undefined when the server offers no passkeys.
 */
export async function passkeySecondFactorOptions(
  { context: { issuer, store, clock } }: AuthorizePages,
  session: BrowserSessionRecord,
): Promise<string | undefined> {
  const rp = relyingPartyOf(issuer);
  const user = session.username ? await store.findUser(session.username) : undefined;
  if (rp === undefined || user === undefined) return undefined;
  const use = { kind: 'second_factor', subject: user.subject } as const;
  return JSON.stringify(await authenticationOptions(store, rp, use, session.id, clock.now()));
}

/**
 * A passkey sign-in form's fields for the sign-in pipeline (FIRST_FACTORS.passkey_sign_in): the
 * user is the credential's owner, not a typed name, so that the failure limits count per user.
 */
export async function passkeySignInFields(
  store: Pick<AuthorizePages['context']['store'], 'findPasskey'>,
  form: Pick<FormParams, 'get'>,
): Promise<Pick<FormParams, 'get'>> {
  const claimed = summarizeResponse(form.get('credential'));
  const owner = claimed && (await store.findPasskey(claimed.summary.id))?.username;
  return {
    get: (name: string) =>
      name === 'username' ? (owner ?? '') : name === 'method' ? 'passkey_sign_in' : form.get(name),
  };
}
