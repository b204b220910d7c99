import type { FactorSummary } from '../factors/factors.js';
import { CSRF_FIELD } from '../html/csrf.js';
import { escapeHtml, type PageView } from '../html/layout.js';
import { passkeySignInForm } from './passkey-page.js';
import { FRESH_SIGN_IN_SECONDS } from './sign-in-freshness.js';

/**
 * The account page's "How you sign in": whether two-step verification is on, and what the user may
 * change. The changes (sign-in-changes.ts) need a fresh sign-in, so the section offers them only
 * while the sign-in is fresh; otherwise it says so and offers "Confirm it's you" instead (the
 * password, or a passkey), never a button the server would refuse.
 */
export interface SecurityView {
  readonly username: string;
  readonly csrfToken: string;
  /** The user's second factors (no secret). */
  readonly factors: readonly FactorSummary[];
  /** Whether the sign-in is fresh enough to change how the user signs in (the rule's own test). */
  readonly fresh: boolean;
  /** A stale sign-in's "Confirm with a passkey": its WebAuthn request options; none when not offered. */
  readonly confirmPasskeyOptions?: string;
}

const FRESH_MINUTES = FRESH_SIGN_IN_SECONDS / 60;

function csrfField(csrfToken: string): string {
  return `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">`;
}

/** The sentence that says whether two-step verification is on, and with what. */
function status(view: PageView, factors: readonly FactorSummary[]): string {
  const { t, date } = view.text;
  const otp = factors.find((f) => f.kind === 'otp');
  const codes = factors.find((f) => f.kind === 'recovery_codes')?.remaining ?? 0;
  // A passkey is a second factor of its own (it proves possession and, with user verification, the
  // user): a user with one and no authenticator app has two-step verification on.
  const passkeys = factors.filter((f) => f.kind === 'passkey').length;
  const since = otp ? date(otp.createdAt ?? 0) : '';
  const text = otp
    ? passkeys === 0
      ? t('security.on-app', { since, codes })
      : t('security.on-app-passkeys', { since, codes, passkeys })
    : passkeys > 0
      ? t('security.on-passkeys', { passkeys })
      : t('security.off');
  return `<p class="section-text" id="two-step-status">${text}</p>`;
}

/** A stale sign-in: what it takes to change anything, and the form that does it. */
function confirmItsYou(page: PageView, view: SecurityView): string {
  const { base, text } = page;
  const passkey =
    view.confirmPasskeyOptions === undefined
      ? ''
      : passkeySignInForm(
          page,
          { action: '/account/login', hidden: { method: 'passkey_sign_in' } },
          view.csrfToken,
          view.confirmPasskeyOptions,
          'passkey.confirm',
        );
  return `<div class="confirm" id="confirm-its-you">
<p class="section-text">${text.t('security.confirm', { minutes: FRESH_MINUTES })}</p>
<form method="post" action="${base}/account/login" class="stack">
${csrfField(view.csrfToken)}
<input type="hidden" name="method" value="password">
<input type="hidden" name="username" value="${escapeHtml(view.username)}">
<label for="password">${text.t('sign-in.password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required>
<button type="submit" class="button primary">${text.t('security.confirm-submit')}</button>
</form>
${passkey}</div>`;
}

/** What a fresh sign-in may do: set the authenticator app up, or make new codes and turn it off. */
function actions(page: PageView, view: SecurityView): string {
  const { base, text } = page;
  if (!view.factors.some((f) => f.kind === 'otp')) {
    // With a passkey, two-step verification is on already: the app is one more way, not the set-up.
    const label = view.factors.some((f) => f.kind === 'passkey') ? 'security.add-app' : 'security.set-up';
    return `<p><a class="button primary wide" href="${base}/account/two-step">${text.t(label)}</a></p>`;
  }
  const csrf = csrfField(view.csrfToken);
  return `<div class="actions">
<form method="post" action="${base}/account/recovery-codes">${csrf}<button type="submit" class="button secondary">${text.t('security.new-codes')}</button></form>
<form method="post" action="${base}/account/two-step/remove">${csrf}<button type="submit" class="button secondary">${text.t('security.turn-off')}</button></form>
</div>`;
}

export function renderSecuritySection(page: PageView, view: SecurityView): string {
  return `<section class="security" aria-labelledby="security-title">
<p class="list-title section-title" id="security-title">${page.text.t('security.title')}</p>
${status(page, view.factors)}
${view.fresh ? actions(page, view) : confirmItsYou(page, view)}
</section>`;
}
