import type { FastifyInstance } from 'fastify';
import { ProblemError } from '@gatehouse/contract';
import { formParamsOf } from '../http/form.js';
import { CSRF_FIELD, checkCsrfToken } from '../html/csrf.js';
import { isLocale } from '../i18n/index.js';
import { updateUser } from '../users/user-administration.js';
import type { AuthorizePages } from './flow.js';
import { backToAccount } from './account-security.js';
import { currentSession } from './sessions.js';
import { signedInSession } from './sign-in/state.js';

/**
 * POST /account/language: the user's own language, their `locale` claim (OIDC Core §5.1), one of
 * the pages' locales or none (their browser's then). The pages speak it when the request names no
 * ui_locales and no language was chosen on a page; applications read it from the ID token and
 * userinfo (profile scope). A change of one's own presentation, not of how one signs in: it needs
 * the CSRF token and a signed-in session, not a fresh sign-in. Audited as a claims update.
 */
export function accountLanguageEndpoint(app: FastifyInstance, pages: AuthorizePages): void {
  const {
    context: { store, clock, audit },
    base,
  } = pages;
  app.post('/account/language', async (request, reply) => {
    const now = clock.now();
    const form = formParamsOf(request.body);
    const session = signedInSession(checkCsrfToken(await currentSession(store, request, now), form.get(CSRF_FIELD)));
    if (!session) throw new ProblemError('csrf_token_invalid');
    const chosen = form.get('locale') ?? '';
    if (chosen !== '' && !isLocale(chosen)) return backToAccount(reply, base);
    const { locale: _old, ...others } = (await store.findUser(session.username))?.claims ?? {};
    const claims = chosen === '' ? others : { ...others, locale: chosen };
    const actor = { id: `user:${session.username}` };
    await updateUser(audit, session.username, () => claims, undefined, now, actor);
    return backToAccount(reply, base, 'language');
  });
}
