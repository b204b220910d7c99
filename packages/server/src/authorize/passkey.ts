import { ProblemError } from '@gatehouse/contract';
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
import { summarizeResponse } from '../webauthn/client-data.js';
import { answerSignedIn } from './consent.js';
import { answerRefusal, loadAuthorizationRequest, type AuthorizePages } from './flow.js';
import { attemptSignIn, authorizationTarget, sendSignInForm } from './sign-in-forms.js';
import type { PasskeySection } from './passkey-page.js';
import type { BrowserPage } from './page.js';
import { currentSession, signedInSubject } from './sessions.js';
import { signedInSession, type SignedInSession } from './sign-in/state.js';
import { asksForFreshSignIn } from './sign-in-freshness.js';

/** A passkey is added only this soon after signing in, seconds: a session left open cannot add one later. */
export const PASSKEY_ENROLMENT_FRESHNESS = 10 * 60;
/** The script changes with a release: browsers check it again after an hour, like the stylesheet. */
const SCRIPT_CACHE = 'public, max-age=3600';

/**
 * The account page's passkeys for a signed-in user: the list, and the creation options when the
 * sign-in is fresh (within PASSKEY_ENROLMENT_FRESHNESS).
 */
export async function passkeySection(
  { context: { issuer, store, clock } }: AuthorizePages,
  session: SignedInSession,
  subject: string,
): Promise<PasskeySection> {
  const rp = relyingPartyOf(issuer);
  if (rp === undefined) return { offered: false, passkeys: [], creationOptions: undefined };
  const now = clock.now();
  const passkeys = await store.listPasskeys(subject);
  const fresh = now - session.authenticatedAt <= PASSKEY_ENROLMENT_FRESHNESS;
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
  return { offered: true, passkeys, creationOptions };
}

/** The Relying Party, or the page a server without passkeys answers. */
function relyingParty(issuer: string, problem: 'passkey_sign_in_failed' | 'passkey_enrolment_failed'): RelyingParty {
  const rp = relyingPartyOf(issuer);
  if (rp === undefined) throw new ProblemError(problem, 'This server offers no passkeys: its issuer is an IP address.');
  return rp;
}

function backToAccount(reply: FastifyReply, base: string): FastifyReply {
  return reply.code(303).header('location', `${base}/account`).header('cache-control', 'no-store').send();
}

/**
 * The passkey routes: the script; POST /login/passkey, the passwordless sign-in (the sign-in
 * pipeline's FIRST_FACTORS.passkey_sign_in, its limits, audit and second-factor policy included); and on the account page,
 * POST /account/passkeys (enrol, within PASSKEY_ENROLMENT_FRESHNESS of signing in), .../rename and
 * .../remove. Every form carries the session's CSRF token; every change and refusal is audited.
 */
export function passkeyEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, audit, clock, issuer },
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
    // The failure limits are per user: the user is the credential's owner, not a typed name.
    const claimed = summarizeResponse(form.get('credential'));
    const owner = claimed && (await store.findPasskey(claimed.summary.id))?.username;
    const fields = {
      get: (name: string) =>
        name === 'username' ? (owner ?? '') : name === 'method' ? 'passkey_sign_in' : form.get(name),
    };
    const target = authorizationTarget(pages, check.request);
    const attempt = await attemptSignIn(pages, request, reply, session, fields, target);
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

  /** The signed-in session and subject of an account form (its CSRF token checked). */
  async function accountForm(request: Parameters<typeof currentSession>[1]) {
    const now = clock.now();
    const form = formParamsOf(request.body);
    const session = signedInSession(checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD)));
    const subject = session && (await signedInSubject(store, session));
    if (!session || subject === undefined) throw new ProblemError('csrf_token_invalid');
    return { form, session, subject, now };
  }

  app.post('/account/passkeys', async (request, reply) => {
    const { form, session, subject, now } = await accountForm(request);
    const rp = relyingParty(issuer, 'passkey_enrolment_failed');
    const refuse = async (code: 'passkey_enrolment_failed' | 'passkey_enrolment_not_fresh', reason: string) => {
      await audit.record({ event: 'passkey_enrolment_failed', at: now, subject, reason, address: request.ip });
      throw new ProblemError(code);
    };
    if (now - session.authenticatedAt > PASSKEY_ENROLMENT_FRESHNESS)
      return refuse('passkey_enrolment_not_fresh', 'sign_in_not_fresh');
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
    if (!result.ok) return refuse('passkey_enrolment_failed', result.reason);
    const { passkey } = result;
    const kind = passkey.backupEligible ? 'synced' : 'device_bound';
    await audit.record({ event: 'passkey_enrolled', at: now, subject, reason: kind, address: request.ip });
    return backToAccount(reply, base);
  });

  app.post('/account/passkeys/rename', async (request, reply) => {
    const { form, subject, now } = await accountForm(request);
    const name = passkeyName(form.get('name'));
    // Another user's credential, or none, is answered as if unknown: nothing changes.
    if (name !== undefined && (await store.renamePasskey(subject, form.get('id') ?? '', name)))
      await audit.record({ event: 'passkey_renamed', at: now, subject, address: request.ip });
    return backToAccount(reply, base);
  });

  app.post('/account/passkeys/remove', async (request, reply) => {
    const { form, subject, now } = await accountForm(request);
    if (await store.removePasskey(subject, form.get('id') ?? ''))
      await audit.record({ event: 'passkey_removed', at: now, subject, address: request.ip });
    return backToAccount(reply, base);
  });
}

export const passkeyPage: BrowserPage = {
  name: 'passkey',
  routes: [
    { path: '/assets/passkey.js', methods: ['GET'] },
    { path: '/login/passkey', methods: ['POST'] },
    { path: '/account/passkeys', methods: ['POST'] },
    { path: '/account/passkeys/rename', methods: ['POST'] },
    { path: '/account/passkeys/remove', methods: ['POST'] },
  ],
  serve: passkeyEndpoints,
};
