import type { FastifyInstance } from 'fastify';
import { escapeHtml, layout, type PageView } from '../html/layout.js';
import { siteView, wireValues, type SitePages } from './site.js';
import { sendPage } from '../html/responses.js';
import { DEMO_PUBLIC_CLIENT_ID, type DemoFlows } from './demo-flows.js';
import { exchangeDemoCode, renderDemoSignIn } from './demo-sign-in.js';

/** Where `serve --demo` registers its clients' redirect URI: on Gatehouse itself. */
export const DEMO_CALLBACK_PATH = '/demo/callback';

// A code this server issues is URL-safe text; anything else is not shown as a command to run.
const CODE = /^[A-Za-z0-9._~-]{1,256}$/;

/** A word for a POSIX shell: as it is when it needs no quoting, else in single quotes. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9._~:/=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The token request that exchanges `code` (RFC 6749 §4.1.3, RFC 7636 §4.5), one option per line. */
function exchangeCommand(issuer: string, clientId: string, code: string, verifier: string | undefined): string {
  const credentials =
    clientId === DEMO_PUBLIC_CLIENT_ID
      ? [`-d client_id=${shellWord(clientId)}`]
      : [`-u ${shellWord(`${clientId}:`)}<secret>`];
  const lines = [
    'curl',
    ...credentials,
    '-d grant_type=authorization_code',
    `-d code=${shellWord(code)}`,
    `-d redirect_uri=${shellWord(`${issuer}${DEMO_CALLBACK_PATH}`)}`,
    `-d code_verifier=${verifier === undefined ? '<code_verifier>' : shellWord(verifier)}`,
    shellWord(`${issuer}/token`),
  ];
  return lines.join(' \\\n  ');
}

interface CallbackQuery {
  readonly code?: string;
  readonly state?: string;
  readonly error?: string;
  readonly error_description?: string;
}

function renderCallbackPage(view: PageView, issuer: string, query: CallbackQuery, flows: DemoFlows): string {
  const { t } = view.text;
  const state = query.state ?? '';
  const flow = state === '' ? undefined : flows.find(state);
  const stateRow = state ? [['state', state] as const] : [];
  if (query.error !== undefined || query.code === undefined || !CODE.test(query.code)) {
    const description = query.error_description ? [['error_description', query.error_description] as const] : [];
    return layout(
      view,
      t('demo.no-code.title'),
      `<div class="parties"><span class="mark mark-error" aria-hidden="true">!</span></div>
<h1>${t('demo.no-code.heading')}</h1>
<p class="summary">${t('demo.no-code.summary')}</p>
${wireValues([['error', query.error ?? ''], ...description, ...stateRow])}
<p class="fine-print">${t('demo.no-code.again')} ${t('demo.served')}</p>`,
    );
  }
  const verifierNote = flow === undefined ? `<p class="summary">${t('demo.code.verifier')}</p>` : '';
  const command = exchangeCommand(issuer, flow?.clientId ?? DEMO_PUBLIC_CLIENT_ID, query.code, flow?.verifier);
  return layout(
    view,
    t('demo.code.title'),
    `<div class="parties"><span class="mark mark-client" aria-hidden="true">✓</span></div>
<h1>${t('demo.code.heading')}</h1>
<p class="lead">${t('demo.code.lead')}</p>
${wireValues([['code', query.code], ...stateRow])}
<h2>${t('demo.code.exchange', { seconds: 60 })}</h2>
${verifierNote}<pre class="command" translate="no"><code>${escapeHtml(command)}</code></pre>
<p class="fine-print">${t('demo.code.once')} ${t('demo.served')}</p>`,
  );
}

/**
 * GET /demo/callback: the demo clients' redirect URI (only with `serve --demo`). The code of an
 * OpenID Connect request the demo printed is exchanged by the page itself, which shows the ID
 * token's claims; any other code is shown with the curl command that exchanges it.
 */
export function demoCallbackPage(app: FastifyInstance, site: SitePages, issuer: string, flows: DemoFlows): void {
  const redirectUri = `${issuer}${DEMO_CALLBACK_PATH}`;
  app.get<{ Querystring: CallbackQuery }>(DEMO_CALLBACK_PATH, async (request, reply) => {
    const query = pickQuery(request.query);
    const flow = query.state === undefined ? undefined : flows.find(query.state);
    const { code } = query;
    if (flow?.nonce !== undefined && query.error === undefined && code !== undefined && CODE.test(code)) {
      const exchange = await flows.exchangeOnce(code, () => exchangeDemoCode(app, redirectUri, flow, code));
      return sendPage(reply, 200, renderDemoSignIn(siteView(site, reply), issuer, flow, exchange));
    }
    return sendPage(reply, 200, renderCallbackPage(siteView(site, reply), issuer, query, flows));
  });
}

/** The parameters the page reads, each once (a repeated one counts as absent). */
function pickQuery(query: unknown): CallbackQuery {
  const raw = (query ?? {}) as Record<string, unknown>;
  const one = (name: string): string | undefined => (typeof raw[name] === 'string' ? raw[name] : undefined);
  return { code: one('code'), state: one('state'), error: one('error'), error_description: one('error_description') };
}
