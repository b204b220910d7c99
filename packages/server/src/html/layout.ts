import { CSRF_FIELD } from './csrf.js';

/**
 * The HTML of the sign-in, consent and error pages. Every value that comes from a request, a
 * client or a user goes through `escapeHtml`; the pages carry no script and no inline style, so
 * the Content-Security-Policy can forbid both.
 */

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The URL prefix of the server's pages (the issuer's path, '' at the root). */
export type BasePath = string;

// The mark of the product: SVG presentation attributes, which a CSP without 'unsafe-inline' allows.
const LOGO =
  '<svg class="logo" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M12 2 4 5.5v5.6c0 4.9 3.4 9.5 8 10.9 4.6-1.4 8-6 8-10.9V5.5L12 2Zm0 4.2a3 3 0 0 1 3 3V11h.6c.5 0 .9.4.9.9v4.2c0 .5-.4.9-.9.9H8.4a.9.9 0 0 1-.9-.9v-4.2c0-.5.4-.9.9-.9H9V9.2a3 3 0 0 1 3-3Zm0 1.6c-.8 0-1.4.6-1.4 1.4V11h2.8V9.2c0-.8-.6-1.4-1.4-1.4Z"/></svg>';

export function layout(base: BasePath, title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Gatehouse</title>
<link rel="stylesheet" href="${base}/assets/gatehouse.css">
<link rel="icon" href="${base}/assets/gatehouse.svg" type="image/svg+xml">
</head>
<body>
<main class="card">
<header class="brand">${LOGO}<span>Gatehouse</span></header>
${content}
</main>
<footer class="page-footer">Protected by Gatehouse · OAuth 2.0 authorization server</footer>
</body>
</html>
`;
}

/** A round badge with the first letter of a name, standing in for the client's logo. */
export function monogram(name: string, kind: 'client' | 'user'): string {
  const letter = [...name.trim()][0]?.toUpperCase() ?? '?';
  return `<span class="mark mark-${kind}" aria-hidden="true">${escapeHtml(letter)}</span>`;
}

export function hiddenFields(csrfToken: string, query: string): string {
  return `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="request" value="${escapeHtml(query)}">`;
}

export interface LoginPage {
  readonly clientName: string;
  readonly query: string;
  readonly csrfToken: string;
  /** The username typed before, kept on a failed attempt. */
  readonly username?: string;
  /** A refusal to show above the form. */
  readonly alert?: { readonly title: string; readonly text: string };
  /** Where the form posts: `/login` unless the device page signs in (`/device/login`). */
  readonly action?: string;
}

export function renderLoginPage(base: BasePath, page: LoginPage): string {
  const alert = page.alert
    ? `<div class="alert" role="alert"><strong>${escapeHtml(page.alert.title)}</strong> ${escapeHtml(page.alert.text)}</div>\n`
    : '';
  return layout(
    base,
    'Sign in',
    `<div class="parties">${monogram(page.clientName, 'client')}</div>
<h1>Sign in</h1>
<p class="lead">to continue to <strong class="client-name">${escapeHtml(page.clientName)}</strong></p>
${alert}<form method="post" action="${base}${page.action ?? '/login'}" class="stack">
${hiddenFields(page.csrfToken, page.query)}
<label for="username">Username</label>
<input id="username" name="username" type="text" value="${escapeHtml(page.username ?? '')}" autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="64" required${page.username ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required${page.username ? ' autofocus' : ''}>
<button type="submit" class="button primary">Sign in</button>
</form>
<p class="fine-print">Next, you will choose what ${escapeHtml(page.clientName)} may do with your account.</p>`,
  );
}

export interface ConsentPage {
  readonly clientName: string;
  /** Where the browser goes next, as the user should recognise it (host of the redirect URI). */
  readonly destination: string;
  readonly username: string;
  readonly scopes: readonly { readonly name: string; readonly words: string }[];
  readonly query: string;
  readonly csrfToken: string;
  /** The client registered itself (RFC 7591), so its name is only its own claim (§5). */
  readonly selfRegistered?: boolean;
}

/** What the client may do once allowed, in plain words: the list of scopes, or that it gets none. */
export function scopeAccess(clientName: string, scopes: ConsentPage['scopes']): string {
  const client = escapeHtml(clientName);
  const items = scopes
    .map(
      (s) =>
        `<li><span class="tick" aria-hidden="true"></span><span><span class="scope-words">${escapeHtml(s.words)}</span>` +
        `<code class="scope-name">${escapeHtml(s.name)}</code></span></li>`,
    )
    .join('\n');
  return scopes.length === 0
    ? `<p class="list-title">${client} asks only to know that you are signed in; it gets no access to your data.</p>`
    : `<p class="list-title">This will allow ${client} to:</p>\n<ul class="scopes">\n${items}\n</ul>`;
}

export function renderConsentPage(base: BasePath, page: ConsentPage): string {
  const client = escapeHtml(page.clientName);
  const access = scopeAccess(page.clientName, page.scopes);
  return layout(
    base,
    `Allow ${page.clientName}?`,
    `<div class="parties">${monogram(page.clientName, 'client')}<span class="link" aria-hidden="true"></span>${monogram(page.username, 'user')}</div>
<h1><span class="client-name">${client}</span> wants to access your account</h1>
<p class="signed-in">Signed in as <strong>${escapeHtml(page.username)}</strong></p>
${page.selfRegistered ? `<p class="alert" role="note"><strong>This application registered itself.</strong> No administrator added it, so its name has not been checked: allow it only if you started it yourself.</p>\n` : ''}${access}
<form method="post" action="${base}/consent" class="actions">
${hiddenFields(page.csrfToken, page.query)}
<button type="submit" name="decision" value="deny" class="button secondary">Deny</button>
<button type="submit" name="decision" value="allow" class="button primary">Allow</button>
</form>
<p class="fine-print">Either way, you will be sent back to <strong>${escapeHtml(page.destination)}</strong>. You can withdraw access later on your <a href="${base}/account">account page</a>.</p>`,
  );
}

export interface ErrorPage {
  readonly status: number;
  /** The catalog code and its page slug. */
  readonly code: string;
  readonly slug: string;
  readonly title: string;
  readonly summary: string;
  readonly detail?: string;
  readonly action: string;
}

export function renderErrorPage(base: BasePath, page: ErrorPage): string {
  const detail =
    page.detail && page.detail !== page.summary
      ? `<p class="detail"><strong>Details</strong> ${escapeHtml(page.detail)}</p>\n`
      : '';
  return layout(
    base,
    page.title,
    `<div class="parties"><span class="mark mark-error" aria-hidden="true">!</span></div>
<h1>${escapeHtml(page.title)}</h1>
<p class="summary">${escapeHtml(page.summary)}</p>
${detail}
<section class="what-to-do"><h2>What to do</h2><p>${escapeHtml(page.action)}</p></section>
<p class="fine-print">Error <code>${escapeHtml(page.code)}</code> · HTTP ${page.status} · <a href="${base}/problems/${escapeHtml(page.slug)}">About this error</a></p>`,
  );
}
