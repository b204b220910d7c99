import type { FastifyInstance } from 'fastify';
import { escapeHtml, layout, type BasePath } from '../html/layout.js';
import { sendPage } from '../html/responses.js';

interface Link {
  readonly path: string;
  readonly title: string;
  readonly what: string;
}

function renderLandingPage(base: BasePath, issuer: string, links: readonly Link[]): string {
  const items = links
    .map(
      (l) =>
        `<li><a href="${base}${escapeHtml(l.path)}">${escapeHtml(l.title)}</a><span class="link-what">${escapeHtml(l.what)}</span></li>`,
    )
    .join('\n');
  return layout(
    base,
    'Gatehouse',
    `<h1>Gatehouse</h1>
<p class="lead">The OAuth 2.0 authorization server and OpenID Provider at <strong class="client-name">${escapeHtml(issuer)}</strong>. Applications send you here to sign in and to ask for access to your account.</p>
<ul class="links">
${items}
</ul>
<p class="fine-print">Developers: start from the metadata; every error links to a page that explains it.</p>`,
  );
}

/** GET /: what this server is, with links to its account page and metadata documents. */
export function landingPage(app: FastifyInstance, base: BasePath, issuer: string, apiPrefix: string | undefined): void {
  const links: Link[] = [
    { path: '/account', title: 'Your account', what: 'the applications you allowed, and signing out' },
    {
      path: '/.well-known/openid-configuration',
      title: 'OpenID Provider configuration',
      what: 'OpenID Connect Discovery 1.0',
    },
    {
      path: '/.well-known/oauth-authorization-server',
      title: 'Authorization server metadata',
      what: 'RFC 8414: endpoints, grants, scopes',
    },
    { path: '/jwks', title: 'Signing keys', what: 'the public keys of its tokens (JWKS)' },
    ...(apiPrefix === undefined
      ? []
      : [{ path: `${apiPrefix}/openapi.json`, title: 'REST API', what: `the OpenAPI document of ${apiPrefix}` }]),
  ];
  const html = renderLandingPage(base, issuer, links);
  app.get('/', async (_request, reply) => sendPage(reply, 200, html));
}
