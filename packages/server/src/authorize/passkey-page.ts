import { CSRF_FIELD } from '../html/csrf.js';
import { escapeHtml, type BasePath } from '../html/layout.js';

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
  base: BasePath,
  target: PasskeySignInTarget,
  csrfToken: string,
  options: string,
  label = 'Sign in with a passkey',
): string {
  const hidden = Object.entries({ [CSRF_FIELD]: csrfToken, ...target.hidden, credential: '' })
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return `<form method="post" action="${base}${target.action}" id="passkey-form" data-mode="get" data-options="${escapeHtml(options)}" hidden>
<p class="passkey-or">or</p>
${hidden}
<button type="button" id="passkey-button" class="button secondary passkey-button">${escapeHtml(label)}</button>
<p id="passkey-status" class="passkey-status" role="status" aria-live="polite"></p>
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

/** A date and time people read; UTC, since the page's script does not format dates. */
function moment(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });
}

function passkeyItem(base: BasePath, csrfToken: string, p: PasskeyView, index: number, fresh: boolean): string {
  const csrf = `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">`;
  const id = `<input type="hidden" name="id" value="${escapeHtml(p.id)}">`;
  const used = p.lastUsedAt === null ? 'Not used yet' : `Last used ${moment(p.lastUsedAt)}`;
  const synced = p.backedUp ? ' · Synced' : '';
  return `<li class="passkey-item">
<strong class="passkey-name">${escapeHtml(p.name)}</strong>
<span class="application-dates">Added ${moment(p.createdAt)} · ${used}${synced}</span>
${fresh ? passkeyActions(base, csrf, id, p, index) : ''}</li>`;
}

function passkeyActions(base: BasePath, csrf: string, id: string, p: PasskeyView, index: number): string {
  return `<div class="passkey-actions">
<form method="post" action="${base}/account/passkeys/rename" class="passkey-rename">
${csrf}${id}<label class="visually-hidden" for="passkey-rename-${index}">New name for ${escapeHtml(p.name)}</label>
<input id="passkey-rename-${index}" name="name" type="text" value="${escapeHtml(p.name)}" maxlength="64" required>
<button type="submit" class="button secondary">Rename</button>
</form>
<form method="post" action="${base}/account/passkeys/remove">
${csrf}${id}<button type="submit" class="button secondary">Remove passkey</button>
</form>
</div>
`;
}

export function renderPasskeySection(base: BasePath, csrfToken: string, section: PasskeySection): string {
  if (!section.offered) return '';
  const list =
    section.passkeys.length === 0
      ? '<p class="summary">No passkey yet. A passkey signs you in without a password, with your fingerprint, face, screen lock or security key.</p>'
      : `<ul class="passkey-list">
${section.passkeys.map((p, i) => passkeyItem(base, csrfToken, p, i, section.fresh)).join('\n')}
</ul>`;
  const enrol =
    section.creationOptions === undefined
      ? ''
      : `<form method="post" action="${base}/account/passkeys" id="passkey-form" class="stack" data-mode="create" data-options="${escapeHtml(section.creationOptions)}" hidden>
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="credential" value="">
<label for="passkey-name">Name of the new passkey (optional)</label>
<input id="passkey-name" name="name" type="text" maxlength="64" placeholder="Work laptop" autocomplete="off">
<button type="button" id="passkey-button" class="button primary">Add a passkey</button>
<p id="passkey-status" class="passkey-status" role="status" aria-live="polite"></p>
</form>
${passkeyScript(base)}`;
  return `<section class="passkeys" aria-labelledby="passkeys-title">
<p class="list-title" id="passkeys-title">Passkeys</p>
${list}
${enrol}
</section>`;
}
