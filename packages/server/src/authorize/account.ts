import type { FastifyInstance } from 'fastify';
import { ProblemError } from '@gatehouse/contract';
import { revokeFamily } from '../oauth/revoke-family.js';
import { formParamsOf } from '../http/form.js';
import { describeScope } from './consent.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import type { AuthorizePages } from './flow.js';
import type { BrowserPage } from './page.js';
import { renderAccountPage, renderNotSignedInPage } from './account-pages.js';
import { sendPage } from '../html/responses.js';
import { currentSession } from './sessions.js';
import { signedInSession } from './sign-in/state.js';

/**
 * GET /account: the applications holding a live grant of the signed-in user (name, scopes in plain
 * words, since when, last used). POST /account/revoke removes one: the grant is revoked, so its
 * refresh tokens are refused and its access tokens too (the API and userinfo read the grant on
 * every request).
 */
export function accountEndpoints(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, audit, clock },
    base,
  } = pages;
  app.get('/account', async (request, reply) => {
    const now = clock.now();
    const session = signedInSession(await currentSession(store, request, now));
    if (!session?.username) return sendPage(reply, 200, renderNotSignedInPage(base));
    const grants = await store.listAccountGrants(session.username, now);
    const page = renderAccountPage(base, {
      username: session.username,
      csrfToken: session.csrfToken,
      applications: grants.map((g) => ({
        grantId: g.grant.id,
        clientName: g.clientName,
        scopes: g.grant.scope.map(describeScope),
        since: g.grant.createdAt,
        // The code exchange that made the grant is its first use.
        lastUsed: g.lastUsedAt ?? g.grant.createdAt,
      })),
    });
    return sendPage(reply, 200, page);
  });
  app.post('/account/revoke', async (request, reply) => {
    const now = clock.now();
    const form = formParamsOf(request.body);
    const session = signedInSession(checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD)));
    if (!session?.username) throw new ProblemError('csrf_token_invalid');
    const username = session.username;
    const grantId = form.get('grant_id') ?? '';
    // Only a grant of this user: another's id is answered as if it were unknown.
    const grant = (await store.listAccountGrants(username, now)).find((g) => g.grant.id === grantId)?.grant;
    if (grant) {
      await audit.transaction((tx, recordIn) =>
        revokeFamily(tx, recordIn, grant, { reason: 'revoked_by_user', at: now }),
      );
    }
    return reply.code(303).header('location', `${base}/account`).header('cache-control', 'no-store').send();
  });
}

export const accountPage: BrowserPage = {
  name: 'account',
  routes: [
    { path: '/account', methods: ['GET'] },
    { path: '/account/revoke', methods: ['POST'] },
  ],
  serve: accountEndpoints,
};
