import type { FactorSummary } from '../factors/factors.js';
import { CSRF_FIELD } from '../html/csrf.js';
import { escapeHtml, type BasePath } from '../html/layout.js';
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

/** A date people read; UTC, since the page has no script to learn the browser's zone. */
function day(seconds: number): string {
  return new Date(seconds * 1000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The sentence that says whether two-step verification is on, and with what. */
function status(factors: readonly FactorSummary[]): string {
  const otp = factors.find((f) => f.kind === 'otp');
  const codes = factors.find((f) => f.kind === 'recovery_codes');
  // A passkey is a second factor of its own (it proves possession and, with user verification, the
  // user): a user with one and no authenticator app has two-step verification on.
  const passkeys = factors.filter((f) => f.kind === 'passkey').length;
  const passkeyText = passkeys === 0 ? '' : `${passkeys} ${passkeys === 1 ? 'passkey' : 'passkeys'}`;
  const text = otp
    ? `Two-step verification is <strong>on</strong>: codes from your authenticator app, since ${day(otp.createdAt ?? 0)}${passkeys === 0 ? '' : `, and ${passkeyText}`}. ${codes?.remaining ?? 0} recovery codes left.`
    : passkeys > 0
      ? `Two-step verification is <strong>on</strong>: ${passkeyText}.`
      : 'Two-step verification is <strong>off</strong>.';
  return `<p class="section-text" id="two-step-status">${text}</p>`;
}

/** A stale sign-in: what it takes to change anything, and the form that does it. */
function confirmItsYou(base: BasePath, view: SecurityView): string {
  const passkey =
    view.confirmPasskeyOptions === undefined
      ? ''
      : passkeySignInForm(
          base,
          { action: '/account/login', hidden: { method: 'passkey_sign_in' } },
          view.csrfToken,
          view.confirmPasskeyOptions,
          'Confirm with a passkey',
        );
  return `<div class="confirm" id="confirm-its-you">
<p class="section-text"><strong>Confirm it's you to make changes.</strong> Setting up or turning off two-step verification, and adding, renaming or removing a passkey, needs a sign-in of the last ${FRESH_MINUTES} minutes.</p>
<form method="post" action="${base}/account/login" class="stack">
${csrfField(view.csrfToken)}
<input type="hidden" name="method" value="password">
<input type="hidden" name="username" value="${escapeHtml(view.username)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required>
<button type="submit" class="button primary">Confirm it's you</button>
</form>
${passkey}</div>`;
}

/** What a fresh sign-in may do: set the authenticator app up, or make new codes and turn it off. */
function actions(base: BasePath, view: SecurityView): string {
  if (!view.factors.some((f) => f.kind === 'otp')) {
    // With a passkey, two-step verification is on already: the app is one more way, not the set-up.
    const label = view.factors.some((f) => f.kind === 'passkey')
      ? 'Add an authenticator app'
      : 'Set up two-step verification';
    return `<p><a class="button primary wide" href="${base}/account/two-step">${label}</a></p>`;
  }
  const csrf = csrfField(view.csrfToken);
  return `<div class="actions">
<form method="post" action="${base}/account/recovery-codes">${csrf}<button type="submit" class="button secondary">New recovery codes</button></form>
<form method="post" action="${base}/account/two-step/remove">${csrf}<button type="submit" class="button secondary">Turn off</button></form>
</div>`;
}

export function renderSecuritySection(base: BasePath, view: SecurityView): string {
  return `<section class="security" aria-labelledby="security-title">
<p class="list-title section-title" id="security-title">How you sign in</p>
${status(view.factors)}
${view.fresh ? actions(base, view) : confirmItsYou(base, view)}
</section>`;
}
