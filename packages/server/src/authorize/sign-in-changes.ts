import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formParamsOf, FormParams } from '../http/form.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import type { AuthorizePages } from './flow.js';
import { currentSession, signedInSubject } from './sessions.js';
import { isFreshSignIn } from './sign-in-freshness.js';
import { signedInSession, type SignedInSession } from './sign-in/state.js';

/**
 * The one rule for every change to how a user signs in: adding, renaming or removing a passkey,
 * turning the authenticator app on or off, making new recovery codes, unlinking an upstream
 * identity. The browser must have signed in within FRESH_SIGN_IN_SECONDS (sign-in-freshness.ts), so
 * that someone who finds a signed-in browser can neither add a lasting way in nor take away the
 * user's second factor without the user's own credentials.
 *
 * A page declares each such route in its entry's `signInChanges` (page.ts), and `servePages` serves
 * it here and nowhere else: the CSRF token (of a POST), a signed-in session whose user still exists,
 * then the sign-in's age. A sign-in too old is refused with `fresh_sign_in_required` (403, its
 * catalog page) and audited as `sign_in_change_refused`, reason the change's name; nothing changes.
 * The account page shows these actions only while the same rule holds, and "Confirm it's you"
 * otherwise. `test/sign-in-changes.test.ts` posts to every `/account/` form with a stale sign-in.
 */

/** What a change's handler gets: the request, its form, and a fresh signed-in session and its user. */
export interface SignInChangeCall {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** The posted form; empty on a GET. */
  readonly form: FormParams;
  readonly session: SignedInSession;
  readonly subject: string;
  readonly now: number;
}

/** One change to how a user signs in, as a page's entry declares it. */
export interface SignInChange {
  /** GET only for a page that starts a change (the authenticator app's set-up); it takes no CSRF token. */
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** The change's name, the reason of a refusal's audit event (e.g. `passkey_removal`). */
  readonly change: string;
  readonly handle: (pages: AuthorizePages, call: SignInChangeCall) => Promise<FastifyReply>;
}

/** Serves one change behind the rule. */
export function serveSignInChange(app: FastifyInstance, pages: AuthorizePages, change: SignInChange): void {
  app.route({
    method: change.method,
    url: change.path,
    handler: async (request, reply) => {
      const call = await freshChange(pages, request, reply, change);
      if (call === undefined)
        return reply.code(303).header('location', `${pages.base}/account`).header('cache-control', 'no-store').send();
      return change.handle(pages, call);
    },
  });
}

/**
 * The fresh signed-in session a change may be made in; undefined for a GET without a signed-in
 * session (it goes back to the account page, which asks for a sign-in). Throws the catalog problem
 * of a refusal: `csrf_token_invalid` for a POST without the session's token or its user,
 * `fresh_sign_in_required` for a sign-in too old.
 */
async function freshChange(
  { context: { store, clock, audit } }: AuthorizePages,
  request: FastifyRequest,
  reply: FastifyReply,
  change: SignInChange,
): Promise<SignInChangeCall | undefined> {
  const now = clock.now();
  const posted = change.method === 'POST';
  const form = posted ? formParamsOf(request.body) : FormParams.empty();
  const current = await currentSession(store, request, now);
  const session = signedInSession(posted ? checkCsrfToken(current, form.get(CSRF_FIELD)) : current);
  const subject = session && (await signedInSubject(store, session));
  if (!session || subject === undefined) {
    if (posted) throw new ProblemError('csrf_token_invalid');
    return undefined;
  }
  if (!isFreshSignIn(session, now)) {
    await audit.record({
      event: 'sign_in_change_refused',
      at: now,
      subject,
      reason: change.change,
      address: request.ip,
    });
    throw new ProblemError('fresh_sign_in_required');
  }
  return { request, reply, form, session, subject, now };
}
