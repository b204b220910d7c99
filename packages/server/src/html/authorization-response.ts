import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { ResponseMode } from '../primitives/response-modes.js';
import { escapeHtml, layout, type PageView } from './layout.js';
import { formActionSource, redirectToClient, sendPageUnder } from './responses.js';

/** Where an authorization response goes, and how (the request's checked `redirect_uri` and `response_mode`). */
export interface ResponseDestination {
  readonly redirectUri: string;
  readonly responseMode: ResponseMode;
}

/** The response parameters (`code` or `error`…, `state`, `iss`); an undefined value is left out. */
export type ResponseParameters = Readonly<Record<string, string | undefined>>;

/**
 * Answers the client at its redirect URI: a redirect with the parameters in the query (`query`,
 * RFC 6749 §4.1.2), or a page whose form posts them there (`form_post`), in the view `view()` makes. `status` is the redirect's:
 * 302 after a GET, 303 after a POST; the form_post page is a 200.
 */
export function answerClient(
  reply: FastifyReply,
  view: () => PageView,
  destination: ResponseDestination,
  params: ResponseParameters,
  status: 302 | 303,
): FastifyReply {
  if (destination.responseMode === 'form_post') return sendFormPost(reply, view(), destination.redirectUri, params);
  return redirectToClient(reply, destination.redirectUri, params, status);
}

/**
 * The form_post page's only script, allowed by its digest rather than by 'unsafe-inline' (CSP3
 * §8.2): the text between <script> and </script> is byte for byte what is hashed here.
 */
export const FORM_POST_SCRIPT = "document.getElementById('response').submit();";
const FORM_POST_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(FORM_POST_SCRIPT).digest('base64')}'`;

/**
 * OAuth 2.0 Form Post Response Mode §2: the parameters as hidden fields of a form whose action is
 * the redirect URI, "auto-submitted in the User Agent"; a browser without script shows a button.
 * The form may post only to the redirect URI's origin (or its private-use scheme, RFC 8252 §7.1;
 * a host no CSP source can name falls back to its scheme), and the page runs no other script.
 *
 * @see https://openid.net/specs/oauth-v2-form-post-response-mode-1_0.html#FormPostResponseMode
 */
function sendFormPost(reply: FastifyReply, view: PageView, redirectUri: string, params: ResponseParameters) {
  const fields = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const { t } = view.text;
  const html = layout(
    view,
    t('form-post.title'),
    `<h1>${t('form-post.title')}</h1>
<form id="response" method="post" action="${escapeHtml(redirectUri)}" class="stack">
${fields}
<noscript><p class="summary">${t('form-post.no-script')}</p>
<button type="submit" class="button primary">${t('form-post.continue')}</button></noscript>
</form>
<script>${FORM_POST_SCRIPT}</script>`,
  );
  const target = formActionSource(redirectUri) ?? new URL(redirectUri).protocol;
  return sendPageUnder(reply, 200, html, { formAction: [target], scripts: [FORM_POST_SCRIPT_SOURCE] });
}
