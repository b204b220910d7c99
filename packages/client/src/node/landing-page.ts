import { createHash } from 'node:crypto';

/**
 * The page the browser lands on at the loopback redirect URI (RFC 8252 §7.3), in the look of the
 * authorization server's pages (its colours, card, shield mark and system font), copied here: the
 * client never imports the server. The style is inline and allowed by its hash, so the page's CSP
 * still forbids every script and every other style.
 */

/** What the page says: its status, its heading and one sentence. */
export interface LandingPage {
  readonly status: number;
  readonly title: string;
  readonly text: string;
  /** A success is marked with a tick, anything else with an exclamation mark. */
  readonly ok: boolean;
}

const STYLE = `:root {
  color-scheme: light dark;
  --bg: #eef1f7; --card: #ffffff; --text: #18202f; --muted: #5d6677; --line: #dde2eb; --accent: #2f5bd8;
  --ok: #17804a; --ok-soft: #e3f4ea; --danger: #a3231c; --danger-soft: #fcebea;
  --shadow: 0 1px 2px rgba(16, 24, 40, .06), 0 12px 32px rgba(16, 24, 40, .08);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #10141c; --card: #1a202b; --text: #e8ecf3; --muted: #a0a9b8; --line: #2d3544; --accent: #5b82f0;
    --ok: #5ccf8f; --ok-soft: #1d3a2b; --danger: #ff8a80; --danger-soft: #3d2222; --shadow: none;
  }
}
*, *::before, *::after { box-sizing: border-box; }
body {
  margin: 0; min-height: 100vh; display: flex; flex-direction: column; align-items: center; justify-content: center;
  padding: 32px 16px; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif;
}
.card {
  width: 100%; max-width: 420px; padding: 28px 28px 24px; background: var(--card);
  border: 1px solid var(--line); border-radius: 16px; box-shadow: var(--shadow);
}
.brand { display: flex; align-items: center; gap: 8px; margin-bottom: 24px; color: var(--muted); font-size: 14px; font-weight: 600; }
.brand .logo { color: var(--accent); }
.parties { display: flex; justify-content: center; margin: 4px 0 20px; }
.mark {
  display: inline-flex; align-items: center; justify-content: center; width: 56px; height: 56px;
  border-radius: 50%; font-size: 26px; font-weight: 700; line-height: 1;
}
.mark-ok { background: var(--ok-soft); color: var(--ok); }
.mark-error { background: var(--danger-soft); color: var(--danger); }
h1 { margin: 0 0 6px; font-size: 22px; line-height: 1.3; text-align: center; }
.summary { margin: 12px 0 0; color: var(--muted); font-size: 15px; text-align: center; overflow-wrap: anywhere; }
.page-footer { margin-top: 20px; color: var(--muted); font-size: 12.5px; text-align: center; }
@media (max-width: 420px) { body { justify-content: flex-start; padding: 16px 12px; } .card { padding: 22px 18px 20px; } }
`;

const LOGO =
  '<svg class="logo" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M12 2 4 5.5v5.6c0 4.9 3.4 9.5 8 10.9 4.6-1.4 8-6 8-10.9V5.5L12 2Zm0 4.2a3 3 0 0 1 3 3V11h.6c.5 0 .9.4.9.9v4.2c0 .5-.4.9-.9.9H8.4a.9.9 0 0 1-.9-.9v-4.2c0-.5.4-.9.9-.9H9V9.2a3 3 0 0 1 3-3Zm0 1.6c-.8 0-1.4.6-1.4 1.4V11h2.8V9.2c0-.8-.6-1.4-1.4-1.4Z"/></svg>';

/** The page's headers: no script, only this page's own style, no framing, no caching. */
export const LANDING_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'`,
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderLandingPage(page: LandingPage): string {
  const title = escapeHtml(page.title);
  const mark = page.ok
    ? '<span class="mark mark-ok" aria-hidden="true">✓</span>'
    : '<span class="mark mark-error" aria-hidden="true">!</span>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · gatehouse-login</title>
<style>${STYLE}</style>
</head>
<body>
<main class="card">
<header class="brand">${LOGO}<span>Gatehouse</span></header>
<div class="parties">${mark}</div>
<h1>${title}</h1>
<p class="summary">${escapeHtml(page.text)}</p>
</main>
<footer class="page-footer">gatehouse-login · OAuth 2.0 for native apps</footer>
</body>
</html>
`;
}
