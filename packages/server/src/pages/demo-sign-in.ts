import type { FastifyInstance } from 'fastify';
import { escapeHtml, layout, linkTo, type PageView } from '../html/layout.js';
import { wireValues } from './site.js';
import type { DemoExchange, DemoFlow } from './demo-flows.js';

/**
 * The end of the demo's OpenID Connect request on /demo/callback: the page exchanges the code at
 * the server's own /token, as the demo's public client would (RFC 6749 §4.1.3, RFC 7636 §4.5), and
 * shows the claims of the ID token it got (OIDC Core §2). The request goes through the server's
 * router in the process (`inject`): the same endpoint, limits and audit as any client's.
 */

/** A token response (RFC 6749 §5.1, OIDC Core §3.1.3.3) or error (§5.2), as far as the page reads it. */
interface TokenAnswer {
  readonly id_token?: string;
  readonly access_token?: string;
  readonly scope?: string;
  readonly error?: string;
  readonly error_description?: string;
}

/** The claims of a compact JWS, read without checking the signature: /token itself just sent it. */
function payloadOf(jwt: string): Record<string, unknown> {
  const payload = jwt.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Exchanges `code` for the flow's client at /token; a refusal or an answer without an ID token is a value. */
export async function exchangeDemoCode(
  app: FastifyInstance,
  redirectUri: string,
  flow: DemoFlow,
  code: string,
): Promise<DemoExchange> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: flow.clientId,
    code_verifier: flow.verifier,
  });
  try {
    const answer = await app.inject({
      method: 'POST',
      // The routes are the server's own paths; the issuer's path is a proxy's business.
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
      remoteAddress: '127.0.0.1',
    });
    const body = answer.json<TokenAnswer>();
    if (answer.statusCode !== 200 || typeof body.id_token !== 'string' || typeof body.access_token !== 'string')
      return {
        ok: false,
        error: body.error ?? String(answer.statusCode),
        description: body.error_description ?? '',
      };
    return {
      ok: true,
      claims: payloadOf(body.id_token),
      scope: body.scope ?? '',
      accessToken: body.access_token,
    };
  } catch (error) {
    return { ok: false, error: 'no answer', description: (error as Error).message };
  }
}

/** A claim as people read it: strings as they are, times also as dates, anything else as JSON. */
function claimText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && ['exp', 'iat', 'auth_time', 'nbf', 'updated_at'].includes(name))
    return `${value} (${new Date(value * 1000).toISOString()})`;
  return JSON.stringify(value);
}

/** The page of an OpenID Connect sign-in: the ID token's claims, or why the exchange failed. */
export function renderDemoSignIn(view: PageView, issuer: string, flow: DemoFlow, exchange: DemoExchange): string {
  const { base, text } = view;
  const { t } = text;
  if (!exchange.ok)
    return layout(
      view,
      t('demo.refused.title'),
      `<div class="parties"><span class="mark mark-error" aria-hidden="true">!</span></div>
<h1>${t('demo.refused.heading')}</h1>
<p class="summary">${t('demo.refused.summary')}</p>
${wireValues([
  ['error', exchange.error],
  ['error_description', exchange.description],
])}
<p class="fine-print">${t('demo.refused.again')} ${t('demo.served')}</p>`,
    );
  const nonceOk = exchange.claims.nonce === flow.nonce;
  const claims = Object.entries(exchange.claims).map(([name, value]) => [name, claimText(name, value)] as const);
  const userinfo = `curl -H 'Authorization: Bearer ${exchange.accessToken}' ${issuer}/userinfo`;
  return layout(
    view,
    t('demo.signed-in.title'),
    `<div class="parties"><span class="mark mark-client" aria-hidden="true">✓</span></div>
<h1>${t('demo.signed-in.heading')}</h1>
<p class="lead">${t('demo.signed-in.lead', { scope: exchange.scope })}</p>
${wireValues(claims)}
<p class="summary">${t(nonceOk ? 'demo.signed-in.nonce-ok' : 'demo.signed-in.nonce-wrong')}
${t('demo.signed-in.check', { link: linkTo(`${base}/jwks`) })}</p>
<h2>${t('demo.signed-in.userinfo')}</h2>
<pre class="command" translate="no"><code>${escapeHtml(userinfo)}</code></pre>
<p class="fine-print">${t('demo.served')}</p>`,
  );
}
