import { CSRF_FIELD } from '../html/csrf.js';
import { escapeHtml, markup, timeHtml, verbatim, type BasePath, type PageView } from '../html/layout.js';
import type { MessageId, PageText } from '../i18n/index.js';

/**
 * The HTML of passkeys: the sign-in form's "Sign in with a passkey" (under the password form) and
 * the account page's list and "Add a passkey". Each form is `#passkey-form`, hidden until the
 * script (`/assets/passkey.js`, webauthn/script.ts) finds WebAuthn in the browser; the options the
 * server made are in its `data-options`, escaped like every value.
 */

/** The script tag of the pages that use passkeys; their CSP allows `script-src 'self'`. */
export function passkeyScript(base: BasePath): string {
  return `<script src="${base}/assets/passkey.js" defer></script>`;
}

/**
 * Where the script (webauthn/script.ts) says how the passkey went: the words it may say are in the
 * page's language, in data attributes, since the script has no catalog of its own.
 */
export function passkeyStatus(text: PageText): string {
  const words = `data-checking="${text.t('passkey.checking')}" data-not-used="${text.t('passkey.not-used')}" data-failed="${text.t('passkey.failed')}"`;
  return `<p id="passkey-status" class="passkey-status" role="status" aria-live="polite" ${words}></p>`;
}

/** Where a passkey sign-in form posts, and the hidden fields it carries beside the CSRF token. */
export interface PasskeySignInTarget {
  readonly action: string;
  readonly hidden: Readonly<Record<string, string>>;
}

/**
 * A passkey sign-in form (under a password form): posts the assertion to `target.action`, the
 * authorization flow's /login/passkey or the account page's /account/login.
 */
export function passkeySignInForm(
  view: PageView,
  target: PasskeySignInTarget,
  csrfToken: string,
  options: string,
  label: MessageId = 'passkey.sign-in',
): string {
  const { base, text } = view;
  const hidden = Object.entries({ [CSRF_FIELD]: csrfToken, ...target.hidden, credential: '' })
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return `<form method="post" action="${base}${target.action}" id="passkey-form" data-mode="get" data-options="${escapeHtml(options)}" hidden>
<p class="passkey-or">${text.t('passkey.or')}</p>
${hidden}
<button type="button" id="passkey-button" class="button secondary passkey-button">${text.t(label)}</button>
${passkeyStatus(text)}
</form>
${passkeyScript(base)}
`;
}

/** One passkey on the account page. */
export interface PasskeyView {
  readonly id: string;
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  /** Whether it is synced (BS, a copy in a cloud keychain). */
  readonly backedUp: boolean;
}

/**
 * The account page's passkeys: the list, and, while the sign-in is fresh (sign-in-changes.ts), the
 * enrolment form and each passkey's Rename and Remove; the security section above says how to get
 * them otherwise.
 */
export interface PasskeySection {
  readonly passkeys: readonly PasskeyView[];
  /** The WebAuthn creation options (JSON) when a passkey may be added now; undefined otherwise. */
  readonly creationOptions: string | undefined;
  /** Whether the server offers passkeys at all (its issuer is not an IP address). */
  readonly offered: boolean;
  /** Whether the sign-in is fresh enough to change them: the same rule as the changes' routes. */
  readonly fresh: boolean;
}

function passkeyItem(view: PageView, csrfToken: string, p: PasskeyView, index: number, now: number, fresh: boolean) {
  const { t, dateTime, relative } = view.text;
  const csrf = `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">`;
  const id = `<input type="hidden" name="id" value="${escapeHtml(p.id)}">`;
  const used =
    p.lastUsedAt === null
      ? t('passkeys.not-used')
      : t('passkeys.last-used', { when: markup(timeHtml(p.lastUsedAt, relative(p.lastUsedAt, now))) });
  const synced = p.backedUp ? ` · ${t('passkeys.synced')}` : '';
  return `<li class="passkey-item">
${verbatim(p.name, 'strong', ' class="passkey-name"')}
<span class="application-dates">${t('passkeys.added', { added: dateTime(p.createdAt) })} · ${used}${synced}</span>
${fresh ? passkeyActions(view, csrf, id, p, index) : ''}</li>`;
}

function passkeyActions(view: PageView, csrf: string, id: string, p: PasskeyView, index: number): string {
  const { base, text } = view;
  return `<div class="passkey-actions">
<form method="post" action="${base}/account/passkeys/rename" class="passkey-rename">
${csrf}${id}<label class="visually-hidden" for="passkey-rename-${index}">${text.t('passkeys.rename-label', { name: p.name })}</label>
<input id="passkey-rename-${index}" name="name" type="text" value="${escapeHtml(p.name)}" maxlength="64" required>
<button type="submit" class="button secondary">${text.t('passkeys.rename')}</button>
</form>
<form method="post" action="${base}/account/passkeys/remove">
${csrf}${id}<button type="submit" class="button secondary">${text.t('passkeys.remove')}</button>
</form>
</div>
`;
}

export function renderPasskeySection(view: PageView, csrfToken: string, section: PasskeySection, now: number): string {
  if (!section.offered) return '';
  const { base, text } = view;
  const { t } = text;
  const list =
    section.passkeys.length === 0
      ? `<p class="summary">${t('passkeys.none')}</p>`
      : `<ul class="passkey-list">
${section.passkeys.map((p, i) => passkeyItem(view, csrfToken, p, i, now, section.fresh)).join('\n')}
</ul>`;
  const enrol =
    section.creationOptions === undefined
      ? ''
      : `<form method="post" action="${base}/account/passkeys" id="passkey-form" class="stack" data-mode="create" data-options="${escapeHtml(section.creationOptions)}" hidden>
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="credential" value="">
<label for="passkey-name">${t('passkeys.name-label')}</label>
<input id="passkey-name" name="name" type="text" maxlength="64" placeholder="${t('passkeys.name-placeholder')}" autocomplete="off">
<button type="button" id="passkey-button" class="button primary">${t('passkeys.add')}</button>
${passkeyStatus(text)}
</form>
${passkeyScript(base)}`;
  return `<section class="passkeys" aria-labelledby="passkeys-title">
<p class="list-title" id="passkeys-title">${t('passkeys.title')}</p>
${list}
${enrol}
</section>`;
}
