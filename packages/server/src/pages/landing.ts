import type { FastifyInstance } from 'fastify';
import { escapeHtml, layout, verbatim, type PageView } from '../html/layout.js';
import { sendPage } from '../html/responses.js';
import type { MessageId } from '../i18n/index.js';
import { siteView, type SitePages } from './site.js';

interface Link {
  readonly path: string;
  readonly title: MessageId;
  readonly what: MessageId;
  readonly values?: { readonly prefix: string };
}

function renderLandingPage(view: PageView, issuer: string, links: readonly Link[]): string {
  const { base, text } = view;
  const { t } = text;
  const items = links
    .map(
      (l) =>
        `<li><a href="${base}${escapeHtml(l.path)}">${t(l.title)}</a><span class="link-what">${t(l.what, l.values)}</span></li>`,
    )
    .join('\n');
  return layout(
    view,
    undefined,
    `<h1>${verbatim(view.brand.name)}</h1>
<p class="lead">${t('landing.lead', { issuer })}</p>
<ul class="links">
${items}
</ul>
<p class="fine-print">${t('landing.fine-print')}</p>`,
  );
}

/** GET /: what this server is, with links to its account page and metadata documents. */
export function landingPage(
  app: FastifyInstance,
  site: SitePages,
  issuer: string,
  apiPrefix: string | undefined,
): void {
  const links: Link[] = [
    { path: '/account', title: 'landing.account', what: 'landing.account.what' },
    { path: '/.well-known/openid-configuration', title: 'landing.openid', what: 'landing.openid.what' },
    { path: '/.well-known/oauth-authorization-server', title: 'landing.metadata', what: 'landing.metadata.what' },
    { path: '/jwks', title: 'landing.jwks', what: 'landing.jwks.what' },
    ...(apiPrefix === undefined
      ? []
      : [
          {
            path: `${apiPrefix}/openapi.json`,
            title: 'landing.api',
            what: 'landing.api.what',
            values: { prefix: apiPrefix },
          } as const,
        ]),
  ];
  // The same page for every visitor in a language: made once per language.
  const made = new Map<string, string>();
  app.get('/', async (_request, reply) => {
    const view = siteView(site, reply, { here: '/' });
    const html = made.get(view.text.locale) ?? renderLandingPage(view, issuer, links);
    made.set(view.text.locale, html);
    return sendPage(reply, 200, html);
  });
}
