import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { viewOf, type AuthorizePages } from '../authorize/flow.js';
import type { BrowserPage } from '../authorize/page.js';
import { currentSession } from '../authorize/sessions.js';
import { isFreshSignIn } from '../authorize/sign-in-freshness.js';
import { signedInSession } from '../authorize/sign-in/state.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { layout } from '../html/layout.js';
import { sendPage } from '../html/responses.js';
import { formParamsOf } from '../http/form.js';
import { normalizeUsername } from '../users/users.js';
import { auditExport, DELETE_ACCOUNT_PATH, deleteOwnAccount, exportAccountData, OWN_DATA_PATH } from './own-data.js';

/**
 * The user's own data (docs/accounts.md, "Your data"), from the account page's "Your data" section:
 * POST /account/data answers the JSON of everything stored about the signed-in user as a download;
 * POST /account/delete deletes the account, after a sign-in of the last 10 minutes (the account
 * page's rule for changes to how one signs in, sign-in-freshness.ts) and the username typed.
 */
function ownDataEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const { store, clock, audit } = pages.context;

  /** The signed-in session and user of a form (its CSRF token checked), or undefined. */
  const signedIn = async (request: FastifyRequest, csrf: string | undefined) => {
    const session = signedInSession(checkCsrfToken(await currentSession(store, request, clock.now()), csrf));
    const user = session && (await store.findUser(session.username));
    return session && user ? { session, user } : undefined;
  };

  app.post(OWN_DATA_PATH, async (request, reply) => {
    const found = await signedIn(request, formParamsOf(request.body).get(CSRF_FIELD));
    if (!found) return reply.code(303).header('location', `${pages.base}/account`).send();
    const now = clock.now();
    const data = await exportAccountData(store, found.user, now);
    await auditExport(audit, found.user.subject, request.ip, now);
    return reply
      .code(200)
      .header('cache-control', 'no-store')
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', 'attachment; filename="account-data.json"')
      .send(`${JSON.stringify(data, null, 2)}\n`);
  });

  app.post(DELETE_ACCOUNT_PATH, async (request, reply) => {
    const form = formParamsOf(request.body);
    const found = await signedIn(request, form.get(CSRF_FIELD));
    if (!found) return reply.code(303).header('location', `${pages.base}/account`).send();
    const now = clock.now();
    if (!isFreshSignIn(found.session, now)) {
      await audit.record({
        event: 'sign_in_change_refused',
        at: now,
        subject: found.user.subject,
        address: request.ip,
        reason: 'account_deletion',
      });
      throw new ProblemError('fresh_sign_in_required');
    }
    if (normalizeUsername(form.get('username') ?? '') !== found.user.username)
      throw new ProblemError('account_deletion_not_confirmed');
    await deleteOwnAccount(audit, found.user, { address: request.ip, now });
    const view = viewOf(pages, reply, { here: '/account' });
    const { t } = view.text;
    const page = layout(
      view,
      t('account.deleted.title'),
      `<h1>${t('account.deleted.title')}</h1>
<p class="lead" role="status">${t('account.deleted.lead')}</p>`,
    );
    return sendPage(reply, 200, page);
  });
}

/** The user's own data's entry in the pages table. */
export const ownDataPage: BrowserPage = {
  name: 'own-data',
  routes: [
    { path: OWN_DATA_PATH, methods: ['POST'] },
    { path: DELETE_ACCOUNT_PATH, methods: ['POST'] },
  ],
  serve: ownDataEndpoints,
};
