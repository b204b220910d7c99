import { OAuthError, ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { formParamsOf } from '../http/form.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import {
  enrolPasskey,
  passkeyName,
  PASSKEY_SCRIPT,
  registrationOptions,
  relyingPartyOf,
  type RelyingParty,
} from '../webauthn/index.js';
import { answerSignedIn } from './consent.js';
import { answerRefusal, answerWithError, loadAuthorizationRequest, type AuthorizePages } from './flow.js';
import { attemptSignIn, authorizationTarget, sendSignInForm } from './sign-in-forms.js';
import type { PasskeySection } from './passkey-page.js';
import { passkeySignInFields } from './passkey-options.js';
import type { BrowserPage } from './page.js';
import { currentSession } from './sessions.js';
import type { SignedInSession } from './sign-in/state.js';
import { asksForFreshSignIn, isFreshSignIn } from './sign-in-freshness.js';
import type { SignInChange } from './sign-in-changes.js';
import type { AccountNotice } from './account-pages.js';

/** The script changes with a release: browsers check it again after an hour, like the stylesheet. */
const SCRIPT_CACHE = 'public, max-age=3600';

/**
 * The account page's passkeys for a signed-in user: the list, and the creation options when the
 * sign-in is fresh (the rule of sign-in-changes.ts, which also serves the changes).
 */
export async function passkeySection(
  { context: { issuer, store, clock } }: AuthorizePages,
  session: SignedInSession,
  subject: string,
): Promise<PasskeySection> {
  const rp = relyingPartyOf(issuer);
  if (rp === undefined) return { offered: false, passkeys: [], creationOptions: undefined, fresh: false };
  const now = clock.now();
  const passkeys = await store.listPasskeys(subject);
  const fresh = isFreshSignIn(session, now);
  const user = fresh ? await store.findUser(session.username) : undefined;
  const creationOptions =
    user === undefined
      ? undefined
      : JSON.stringify(
          await registrationOptions(
            store,
            rp,
            { subject, username: user.username, displayName: user.claims.name ?? user.username },
            session.id,
            now,
          ),
        );
  return { offered: true, passkeys, creationOptions, fresh };
}

/** The Relying Party, or the page a server without passkeys answers. */
function relyingParty(issuer: string, problem: 'passkey_sign_in_failed' | 'passkey_enrolment_failed'): RelyingParty {
  const rp = relyingPartyOf(issuer);
  if (rp === undefined) throw new ProblemError(problem, 'This server offers no passkeys: its issuer is an IP address.');
  return rp;
}

/** Back to the account page (303), saying what was done (account-pages.ts). */
function backToAccount(reply: FastifyReply, base: string, done: AccountNotice): FastifyReply {
  const location = `${base}/account?${new URLSearchParams({ done })}`;
  return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}

/**
 * The passkey routes: the script, and POST /login/passkey, the passwordless sign-in (the sign-in
 * pipeline's FIRST_FACTORS.passkey_sign_in, its limits, audit and second-factor policy included).
 * The account page's changes are PASSKEY_CHANGES. Every form carries the session's CSRF token.
 */
export function passkeyEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock, issuer },
    base,
  } = pages;
  app.get('/assets/passkey.js', async (_request, reply) =>
    reply
      .header('cache-control', SCRIPT_CACHE)
      .header('x-content-type-options', 'nosniff')
      .type('text/javascript; charset=utf-8')
      .send(PASSKEY_SCRIPT),
  );

  app.post('/login/passkey', async (request, reply) => {
    const form = formParamsOf(request.body);
    const session = checkCsrfToken(await currentSession(store, request, clock.now()), form.get(CSRF_FIELD));
    const check = await loadAuthorizationRequest(pages.context, form.get('request') ?? '', request.ip);
    if (check.kind !== 'valid') return answerRefusal(pages, reply, check, 303);
    relyingParty(issuer, 'passkey_sign_in_failed');
    // FIRST_FACTORS.passkey_sign_in through the sign-in pipeline (its limits, audit and second-factor policy).
    const fields = await passkeySignInFields(store, form);
    const target = authorizationTarget(pages, check.request);
    const attempt = await attemptSignIn(pages, request, reply, session, fields, target);
    if ('declined' in attempt)
      return answerWithError(pages, reply, check.request, new OAuthError('terms_declined'), 303);
    if (!attempt.ok) {
      // A refused passkey does not reveal whose it is: the username field stays empty.
      const shown = attempt.form.kind === 'password' ? { ...attempt.form, username: undefined } : attempt.form;
      return sendSignInForm(pages, reply, target, attempt.session, attempt.status, shown);
    }
    if (asksForFreshSignIn(check.request)) return answerSignedIn(pages, reply, check.request, attempt.session, 303);
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('location', `${base}/authorize?${check.request.query}`)
      .send();
  });
}

/**
 * The account page's passkey changes, each behind the freshness rule (sign-in-changes.ts): enrol
 * (POST /account/passkeys), rename and remove. Every change and refusal is audited.
 */
export const PASSKEY_CHANGES: readonly SignInChange[] = [
  {
    method: 'POST',
    path: '/account/passkeys',
    change: 'passkey_enrolment',
    async handle({ context: { store, audit, issuer }, base }, { request, reply, form, session, subject, now }) {
      const rp = relyingParty(issuer, 'passkey_enrolment_failed');
      const user = await store.findUser(session.username);
      if (user === undefined) throw new ProblemError('csrf_token_invalid');
      const owner = { subject, username: user.username, displayName: user.claims.name ?? user.username };
      const result = await enrolPasskey(store, rp, {
        owner,
        sessionId: session.id,
        response: form.get('credential'),
        name: form.get('name'),
        now,
      });
      const address = request.ip;
      if (!result.ok) {
        await audit.record({ event: 'passkey_enrolment_failed', at: now, subject, reason: result.reason, address });
        throw new ProblemError('passkey_enrolment_failed');
      }
      const kind = result.passkey.backupEligible ? 'synced' : 'device_bound';
      await audit.record({ event: 'passkey_enrolled', at: now, subject, reason: kind, address });
      return backToAccount(reply, base, 'passkey_added');
    },
  },
  {
    method: 'POST',
    path: '/account/passkeys/rename',
    change: 'passkey_rename',
    async handle({ context: { store, audit }, base }, { request, reply, form, subject, now }) {
      const name = passkeyName(form.get('name'));
      // Another user's credential, or none, is answered as if unknown: nothing changes.
      if (name !== undefined && (await store.renamePasskey(subject, form.get('id') ?? '', name)))
        await audit.record({ event: 'passkey_renamed', at: now, subject, address: request.ip });
      return backToAccount(reply, base, 'passkey_renamed');
    },
  },
  {
    method: 'POST',
    path: '/account/passkeys/remove',
    change: 'passkey_removal',
    async handle({ context: { store, audit }, base }, { request, reply, form, subject, now }) {
      if (await store.removePasskey(subject, form.get('id') ?? ''))
        await audit.record({ event: 'passkey_removed', at: now, subject, address: request.ip });
      return backToAccount(reply, base, 'passkey_removed');
    },
  },
];

export const passkeyPage: BrowserPage = {
  name: 'passkey',
  routes: [
    { path: '/assets/passkey.js', methods: ['GET'] },
    { path: '/login/passkey', methods: ['POST'] },
  ],
  serve: passkeyEndpoints,
  signInChanges: PASSKEY_CHANGES,
};
