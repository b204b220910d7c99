import { ProblemError } from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';
import { matchLocale, type PageLocale } from '../i18n/index.js';
import type { Store } from '../store/store.js';
import { clientLabel, type ClientLabel, type ClientLink } from './client-label.js';
import type { BrowserPage } from './page.js';

/**
 * A client as the consent and sign-in pages present it (RFC 7591 §2): its name in the page's
 * language (§2.2 `client_name#de`), its logo served from this origin, and its home page, privacy
 * policy and terms, each shown with its host, so that a person sees where a link leads. A client
 * of a metadata document keeps its host as its heading (client-label.ts): its document's links
 * are shown with their hosts, its claimed names and logo are not.
 */

/** GET /client-logos/{id}: a registered client's logo, fetched at registration, from this origin. */
export const CLIENT_LOGOS_PATH = '/client-logos';

/** A year, as for the brand's files: the URL the pages name carries the image's digest. */
const VERSIONED_CACHE = 'public, max-age=31536000, immutable';

const LINK_FIELDS = [
  ['client_uri', 'home'],
  ['policy_uri', 'policy'],
  ['tos_uri', 'terms'],
] as const;

function linkOf(kind: ClientLink['kind'], href: unknown): ClientLink[] {
  if (typeof href !== 'string' || !URL.canParse(href)) return [];
  const url = new URL(href);
  return url.protocol === 'https:' || url.protocol === 'http:' ? [{ kind, href, host: url.host }] : [];
}

/** The label of `client` for a page in `locale`, with what its registration (or document) says. */
export function presentedClient(
  store: Store,
  client: { readonly id: string; readonly name: string },
  locale: PageLocale,
): Promise<ClientLabel> {
  return withPresentation(store, client.id, clientLabel(client), locale);
}

/** `label` of the client `clientId`, with what its registration (or document) says, for a page in `locale`. */
export async function withPresentation(
  store: Store,
  clientId: string,
  label: ClientLabel,
  locale: PageLocale,
): Promise<ClientLabel> {
  const client = { id: clientId };
  if (label.documentHost) {
    const document = (await store.findClientIdMetadataDocument(client.id))?.document ?? {};
    const links = LINK_FIELDS.flatMap(([field, kind]) => linkOf(kind, document[field]));
    return { ...label, links };
  }
  const presentation = await store.findClientPresentation(client.id);
  if (presentation === undefined) return label;
  const tag = matchLocale(locale, Object.keys(presentation.names));
  const links = [
    ...linkOf('home', presentation.clientUri),
    ...linkOf('policy', presentation.policyUri),
    ...linkOf('terms', presentation.tosUri),
  ];
  const { logo } = presentation;
  return {
    ...label,
    name: tag === undefined ? label.name : presentation.names[tag]!,
    links,
    ...(logo && { logo: `${CLIENT_LOGOS_PATH}/${encodeURIComponent(client.id)}?v=${logo.version}` }),
  };
}

type LogoRequest = FastifyRequest<{ Params: { id: string }; Querystring: { v?: string } }>;

export const clientLogoPage: BrowserPage = {
  name: 'client-logos',
  routes: [{ path: `${CLIENT_LOGOS_PATH}/:id`, methods: ['GET'] }],
  serve(app, { context }) {
    app.get(`${CLIENT_LOGOS_PATH}/:id`, async (request: LogoRequest, reply) => {
      const logo = (await context.store.findClientPresentation(request.params.id))?.logo;
      if (logo === undefined)
        throw new ProblemError('not_found', `There is no logo of a client '${request.params.id}'.`);
      return reply
        .header('cache-control', request.query.v === logo.version ? VERSIONED_CACHE : 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .type(logo.type)
        .send(Buffer.from(logo.data, 'base64'));
    });
  },
};
