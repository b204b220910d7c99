/**
 * The pages' colours that a brand does not replace, in each scheme: the card, its text, and the
 * muted text of the fine print and the footer. The brand's colours are checked against them
 * (branding/palette.ts); the page background (`bg`) is the one a brand may replace.
 */
export const PAGE_COLORS = {
  light: { bg: '#eef1f7', card: '#ffffff', text: '#18202f', muted: '#5d6677' },
  dark: { bg: '#10141c', card: '#1a202b', text: '#e8ecf3', muted: '#a0a9b8' },
} as const;

/**
 * The pages' only stylesheet, served by the server itself at /assets/gatehouse.css (no CDN, no
 * web font: the system font of each device). A TypeScript string so that it ships inside dist. Sides are
 * logical (margin-inline-start, inset-inline-start…): a right-to-left page (dir="rtl") mirrors.
 * Every text colour meets WCAG 2.2 AA (SC 1.4.3, 4.5:1) on every surface it is drawn on, in both
 * schemes (test/palette-contrast.test.ts computes it from this text): the dark scheme's buttons
 * carry dark text on their light accent.
 */
export const STYLESHEET = `:root {
  color-scheme: light dark;
  --bg: ${PAGE_COLORS.light.bg}; --card: ${PAGE_COLORS.light.card};
  --text: ${PAGE_COLORS.light.text}; --muted: ${PAGE_COLORS.light.muted}; --line: #dde2eb;
  --accent: #2f5bd8; --accent-hover: #2449b8; --accent-text: #ffffff; --accent-soft: #e8eefc;
  --ok: #15763f; --ok-soft: #e3f4ea; --danger: #a3231c; --danger-soft: #fcebea; --focus: #7aa0ff;
  --shadow: 0 1px 2px rgba(16, 24, 40, .06), 0 12px 32px rgba(16, 24, 40, .08);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: ${PAGE_COLORS.dark.bg}; --card: ${PAGE_COLORS.dark.card};
    --text: ${PAGE_COLORS.dark.text}; --muted: ${PAGE_COLORS.dark.muted}; --line: #2d3544;
    --accent: #6a8ef2; --accent-hover: #819ff4; --accent-text: #10141c; --accent-soft: #1c2640;
    --ok: #5ccf8f; --ok-soft: #1d3a2b; --danger: #ff8a80; --danger-soft: #3d2222; --shadow: none;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; min-height: 100vh; display: flex; flex-direction: column; align-items: center; justify-content: center;
  padding: 32px 16px; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif;
}
.card {
  width: 100%; max-width: 420px; padding: 28px 28px 24px; background: var(--card);
  border: 1px solid var(--line); border-radius: 16px; box-shadow: var(--shadow);
}
.card-wide { max-width: 720px; }
.brand { display: flex; align-items: center; gap: 8px; margin-bottom: 24px; color: var(--muted); font-size: 14px; font-weight: 600; letter-spacing: .01em; }
.brand .logo { color: var(--accent); }
.brand .brand-logo { display: block; width: auto; max-width: 160px; height: 28px; object-fit: contain; }
.parties { display: flex; align-items: center; justify-content: center; gap: 10px; margin: 4px 0 20px; }
.mark {
  display: inline-flex; flex: none; align-items: center; justify-content: center; width: 56px; height: 56px;
  aspect-ratio: 1; border-radius: 16px; font-size: 26px; font-weight: 700; line-height: 1;
}
.mark-client { background: var(--accent); color: var(--accent-text); }
.mark-logo { padding: 6px; object-fit: contain; background: var(--card); border: 1px solid var(--line); }
/* a client's links (RFC 7591 §2: client_uri, policy_uri, tos_uri), each with its host */
.client-links { display: flex; flex-wrap: wrap; justify-content: center; gap: 4px 16px; list-style: none; margin: -12px 0 20px; padding: 0; font-size: 13.5px; }
.client-links .client-host { color: var(--muted); }
.mark-user { background: var(--accent-soft); color: var(--accent); border-radius: 50%; }
.mark-error { background: var(--danger-soft); color: var(--danger); border-radius: 50%; }
.link { width: 40px; border-top: 3px dotted var(--muted); opacity: .45; }
h1 { margin: 0 0 6px; font-size: 22px; line-height: 1.3; font-weight: 700; text-align: center; overflow-wrap: anywhere; }
h2 { margin: 0 0 4px; font-size: 15px; }
p { margin: 0 0 12px; }
.lead, .signed-in { margin-bottom: 22px; color: var(--muted); text-align: center; }
.client-name { color: var(--text); font-weight: 700; overflow-wrap: anywhere; }
.client-claim { display: block; margin: 2px 0 4px; color: var(--muted); font-size: 14px; font-weight: 400; overflow-wrap: anywhere; }
.alert .client-host { display: inline; overflow-wrap: anywhere; }
.signed-in strong { color: var(--text); }
.stack { display: flex; flex-direction: column; }
label { margin: 0 0 6px; font-size: 14px; font-weight: 600; }
input[type="text"], input[type="password"], input[type="email"] {
  width: 100%; margin: 0 0 16px; padding: 11px 12px; font: inherit; color: var(--text);
  background: var(--card); border: 1px solid var(--line); border-radius: 10px;
}
input:focus { outline: 3px solid var(--focus); outline-offset: 1px; border-color: var(--accent); }
.button {
  display: inline-flex; align-items: center; justify-content: center; min-height: 46px; padding: 10px 18px;
  font: inherit; font-weight: 650; border-radius: 10px; border: 1px solid transparent; cursor: pointer;
}
.button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
a.button { text-decoration: none; }
.button.wide { width: 100%; }
.primary { background: var(--accent); color: var(--accent-text); }
.primary:hover { background: var(--accent-hover); }
.secondary { background: var(--card); color: var(--text); border-color: var(--line); }
.secondary:hover { background: var(--bg); }
.stack .button { margin-top: 8px; width: 100%; }
.actions { display: flex; gap: 12px; margin: 24px 0 0; }
.actions .button, .actions > form { flex: 1 1 0; }
.actions > form { display: flex; }
.actions > form .button { width: 100%; }
.list-title { margin: 0 0 10px; font-weight: 600; }
/* federation (authorize/login-page.ts): the organization sign-in, set apart from the form above it */
.upstreams { margin-top: 24px; padding-top: 20px; border-top: 1px solid var(--line); }
.upstreams .button img { margin-inline-end: 8px; }
.scopes { list-style: none; margin: 0; padding: 0; border: 1px solid var(--line); border-radius: 12px; }
.scopes li { display: flex; gap: 12px; align-items: flex-start; padding: 12px 14px; }
.scopes li + li { border-top: 1px solid var(--line); }
.tick {
  flex: none; position: relative; width: 22px; height: 22px; margin-top: 1px; border-radius: 50%; background: var(--ok-soft);
}
.tick::after {
  content: ""; position: absolute; inset-inline-start: 8px; top: 4px; width: 5px; height: 10px;
  border: solid var(--ok); border-width: 0 2px 2px 0; transform: rotate(45deg);
}
.scope-words { display: block; font-weight: 500; }
.scope-name { display: block; color: var(--muted); font-size: 12.5px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
.alert {
  margin: 0 0 18px; padding: 11px 14px; color: var(--danger); background: var(--danger-soft);
  border-radius: 10px; font-size: 15px;
}
.alert strong { display: block; }
.summary { margin: 12px 0 14px; color: var(--muted); font-size: 15px; }
.notice { margin: 0 0 18px; padding: 11px 14px; color: var(--ok); background: var(--ok-soft); border-radius: 10px; font-size: 15px; }
.section-text { margin: 0 0 14px; color: var(--muted); font-size: 15px; }
form + #passkey-form { margin-top: 20px; }
.section-text strong { color: var(--text); }
.confirm { padding: 14px; border: 1px solid var(--line); border-radius: 12px; }
.confirm .stack .button { margin-top: 0; }
.detail { margin: 0; padding: 10px 12px; background: var(--bg); border-radius: 10px; font-size: 14px; overflow-wrap: anywhere; }
.detail strong { display: block; font-size: 12.5px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.what-to-do { margin: 16px 0 0; padding: 12px 14px; background: var(--accent-soft); border-radius: 10px; }
.what-to-do p { margin: 0; }
.forgot-password { margin: 12px 0 0; font-size: 14px; text-align: center; }
.sign-up { margin: 6px 0 0; font-size: 14px; text-align: center; }
.fine-print { margin: 20px 0 0; color: var(--muted); font-size: 13.5px; text-align: center; overflow-wrap: anywhere; }
.fine-print strong { color: var(--text); font-weight: 600; }
a { color: var(--accent); }
.page-footer { margin-top: 20px; color: var(--muted); font-size: 12.5px; text-align: center; }
.page-footer p { margin: 0 0 8px; }
/* the language switcher (html/layout.ts): each language in its own name, the page's marked */
.languages ul { display: flex; flex-wrap: wrap; justify-content: center; gap: 4px 14px; list-style: none; margin: 0; padding: 0; }
.languages a { display: inline-block; padding: 4px 2px; color: var(--muted); }
.languages a[aria-current] { color: var(--text); font-weight: 700; text-decoration: none; }
a:focus-visible, summary:focus-visible, select:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
select { width: 100%; margin: 0 0 16px; padding: 10px 12px; font: inherit; color: var(--text); background: var(--card); border: 1px solid var(--line); border-radius: 10px; }
.wire-title { margin: 0 0 8px; color: var(--muted); font-size: 13.5px; text-align: center; }
/* values of the wire keep their own direction inside a right-to-left page */
code, .user-code, .client-name, .client-host { unicode-bidi: isolate; }
.command, .secret, .recovery-codes, input.user-code, input.one-time-code { direction: ltr; }
.applications { list-style: none; margin: 0; padding: 0; border: 1px solid var(--line); border-radius: 12px; }
.application { padding: 14px; }
.application + .application { border-top: 1px solid var(--line); }
.application-head { display: flex; gap: 12px; align-items: center; }
.application-head .mark { width: 44px; height: 44px; border-radius: 12px; font-size: 20px; }
.application-name { min-width: 0; }
.application-dates { display: block; color: var(--muted); font-size: 13px; }
.application-scopes { margin: 10px 0 12px; padding-inline-start: 20px; font-size: 14.5px; }
.application .button { width: 100%; }
.user-code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; letter-spacing: .12em; }
input.user-code { font-size: 22px; text-align: center; text-transform: uppercase; }
.device-code { margin: 0 0 18px; padding: 12px 14px; text-align: center; background: var(--accent-soft); border-radius: 10px; }
.device-code .user-code { display: block; margin-top: 4px; font-size: 22px; font-weight: 700; }
.links { list-style: none; margin: 0; padding: 0; border: 1px solid var(--line); border-radius: 12px; }
.links li { padding: 12px 14px; }
.links li + li { border-top: 1px solid var(--line); }
.links a { font-weight: 600; overflow-wrap: anywhere; }
.links code { overflow-wrap: anywhere; }
.link-what { display: block; color: var(--muted); font-size: 13.5px; }
.values { display: grid; grid-template-columns: max-content 1fr; gap: 6px 12px; margin: 0 0 18px; font-size: 14.5px; }
.values dt { color: var(--muted); }
.values dd { margin: 0; overflow-wrap: anywhere; }
.command {
  margin: 8px 0 0; padding: 12px 14px; background: var(--bg); border: 1px solid var(--line); border-radius: 10px;
  font-size: 12.5px; line-height: 1.55; white-space: pre-wrap; word-break: break-all; user-select: all;
}
.eyebrow { margin: 0 0 8px; color: var(--muted); font-size: 13.5px; text-align: center; overflow-wrap: anywhere; }
.section-title { margin: 22px 0 10px; }
/* the account page's e-mail section (authorize/account-pages.ts): the form of a new address set apart from the verification's button */
.email .stack + .stack { margin-top: 20px; }
.reasons { list-style: none; margin: 0; padding: 0; border: 1px solid var(--line); border-radius: 12px; }
.reasons li { padding: 10px 14px; overflow-wrap: anywhere; }
.reasons li + li { border-top: 1px solid var(--line); }
.reasons li:target { background: var(--accent-soft); }
.reason-meta { display: block; color: var(--muted); font-size: 13px; }
.reason-links { display: flex; flex-wrap: wrap; gap: 4px 12px; list-style: none; margin: 6px 0 0; padding: 0; font-size: 13px; }
.links .reason-links li { padding: 0; border: 0; }
.links .reason-links a { font-weight: 400; }
/* passkeys (authorize/passkey-page.ts) */
[hidden] { display: none !important; }
.passkey-or { display: flex; align-items: center; gap: 12px; margin: 18px 0 10px; color: var(--muted); font-size: 14px; }
.passkey-or::before, .passkey-or::after { content: ""; flex: 1; border-top: 1px solid var(--line); }
.passkey-button { width: 100%; }
.passkey-status { margin: 10px 0 0; color: var(--muted); font-size: 14px; text-align: center; }
.passkey-status:empty { display: none; }
.passkeys { margin-top: 24px; }
.passkey-list { list-style: none; margin: 0 0 14px; padding: 0; border: 1px solid var(--line); border-radius: 12px; }
.passkey-item { padding: 12px 14px; }
.passkey-item + .passkey-item { border-top: 1px solid var(--line); }
.passkey-name { display: block; overflow-wrap: anywhere; }
.passkey-actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; }
.passkey-rename { display: flex; gap: 8px; flex: 1 1 220px; min-width: 0; }
.passkey-rename input[type="text"] { flex: 1; min-width: 0; margin: 0; }
.passkey-actions .button { min-height: 44px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.qr { display: block; width: 200px; height: 200px; margin: 4px auto 12px; }
.secret { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 14px; text-align: center; overflow-wrap: anywhere; user-select: all; }
.recovery-codes { display: grid; grid-template-columns: 1fr 1fr; gap: 6px 16px; list-style: none; margin: 0 0 18px; padding: 12px 14px; background: var(--bg); border: 1px solid var(--line); border-radius: 10px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 14.5px; user-select: all; }
.other-factors { margin-top: 18px; }
.other-factors summary { cursor: pointer; color: var(--muted); font-size: 14px; }
input.one-time-code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 20px; letter-spacing: 0.2em; text-align: center; }
@media (max-width: 420px) {
  body { justify-content: flex-start; padding: 16px 12px; }
  .card { padding: 22px 18px 20px; border-radius: 14px; }
  h1 { font-size: 20px; }
}
`;

/** The favicon: the same shield as the pages' brand mark. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#2f5bd8" d="M12 2 4 5.5v5.6c0 4.9 3.4 9.5 8 10.9 4.6-1.4 8-6 8-10.9V5.5L12 2Zm0 4.2a3 3 0 0 1 3 3V11h.6c.5 0 .9.4.9.9v4.2c0 .5-.4.9-.9.9H8.4a.9.9 0 0 1-.9-.9v-4.2c0-.5.4-.9.9-.9H9V9.2a3 3 0 0 1 3-3Zm0 1.6c-.8 0-1.4.6-1.4 1.4V11h2.8V9.2c0-.8-.6-1.4-1.4-1.4Z"/></svg>`;
