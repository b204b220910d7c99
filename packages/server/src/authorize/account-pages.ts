import {
  escapeHtml,
  hiddenFields,
  layout,
  markup,
  monogram,
  timeHtml,
  verbatim,
  type PageView,
} from '../html/layout.js';
import { LOCALE_NAMES, SUPPORTED_LOCALES, type MessageId } from '../i18n/index.js';
import { clientClaimHtml, clientMark, clientNameHtml, type ClientLabel } from './client-label.js';

/**
 * The pages of a signed-in person's own session: sign out (RP-initiated or plain), signed out,
 * and the account page listing the applications that hold a grant. Same layout, no script.
 */

interface LogoutPage {
  readonly csrfToken: string;
  /** The logout request's parameters, checked again on POST. */
  readonly query: string;
  readonly username: string | null;
  /** The client that asked for the sign-out (client-label.ts), if any. */
  readonly client: ClientLabel | undefined;
}

export function renderLogoutPage(view: PageView, page: LogoutPage): string {
  const { base, text } = view;
  const { t } = text;
  const who = page.username
    ? `<p class="signed-in">${t('common.signed-in-as', { username: page.username })}</p>`
    : `<p class="signed-in">${t('logout.not-signed-in')}</p>`;
  const from = page.client ? `${t('logout.asked-by', { client: page.client.name })} ` : '';
  return layout(
    view,
    t('logout.title'),
    `<h1>${t('logout.heading', { product: view.brand.name })}</h1>
${who}
<p class="lead">${from}${t('logout.lead')}</p>
<form method="post" action="${base}/logout" class="stack">
${hiddenFields(page.csrfToken, page.query)}
<button type="submit" class="button primary">${t('logout.submit')}</button>
</form>
<p class="fine-print"><a href="${base}/account">${t('logout.account')}</a></p>`,
  );
}

export function renderSignedOutPage(view: PageView): string {
  const { t } = view.text;
  return layout(
    view,
    t('signed-out.title'),
    `<h1>${t('signed-out.heading')}</h1>
<p class="lead">${t('signed-out.lead')}</p>`,
  );
}

/** One application on the account page: a client and what all its grants of the user hold. */
export interface ApplicationView {
  readonly clientId: string;
  /** The client as the pages name it (client-label.ts). */
  readonly client: ClientLabel;
  readonly scopes: readonly string[];
  readonly since: number;
  readonly lastUsed: number;
}

/**
 * What the account page says after each of its forms, on the way back (`/account?done=`): one
 * sentence per change, named in the query by its key; anything else says nothing.
 */
const NOTICES = {
  access_removed: 'account.notice.access-removed',
  two_step_on: 'account.notice.two-step-on',
  two_step_off: 'account.notice.two-step-off',
  recovery_codes: 'account.notice.recovery-codes',
  passkey_added: 'account.notice.passkey-added',
  passkey_renamed: 'account.notice.passkey-renamed',
  passkey_removed: 'account.notice.passkey-removed',
  language: 'account.notice.language',
  verification_sent: 'account.notice.verification-sent',
  verification_wait: 'account.notice.verification-wait',
  email_verified: 'account.notice.email-verified',
  email_change_sent: 'account.notice.email-change-sent',
  email_change_wait: 'account.notice.email-change-wait',
  email_changed: 'account.notice.email-changed',
} as const satisfies Record<string, MessageId>;

export type AccountNotice = keyof typeof NOTICES;

/** What the account page says after a form: a message and its values. */
export interface Notice {
  readonly id: MessageId;
  readonly values?: { readonly client: string };
}

/** The notice of `done`, naming the application removed when it is known (client-label.ts). */
export function noticeOf(done: string | undefined, removed?: ClientLabel): Notice | undefined {
  if (done === undefined || !Object.hasOwn(NOTICES, done)) return undefined;
  if (done === 'access_removed' && removed !== undefined)
    return { id: 'account.notice.access-removed-named', values: { client: removed.name } };
  return { id: NOTICES[done as AccountNotice] };
}

interface AccountPage {
  readonly username: string;
  readonly csrfToken: string;
  readonly applications: readonly ApplicationView[];
  /** Federation: the upstream identities linked to the account. */
  readonly linked?: readonly LinkedProviderView[];
  /** passkey: the passkeys section's HTML (passkey-page.ts); empty when the server offers none. */
  readonly passkeys?: string;
  /** The security section's HTML (account-security-page.ts); absent: not shown. */
  readonly security?: string;
  /** What the last form did (noticeOf), shown at the top. */
  readonly notice?: Notice;
  /** The user's address and whether it is verified, with where to verify it; absent: not shown. */
  readonly email?: EmailView;
  /** The "Your data" section's HTML (account-data-page.ts); absent: not shown. */
  readonly ownData?: string;
  /** The user's `locale` claim: the language the account page's form shows as chosen. */
  readonly locale: string | undefined;
  /** The moment the page is shown, for relative times. */
  readonly now: number;
}

/** The user's e-mail address on the account page (EMAIL_VERIFICATION, accounts/email-verification.ts). */
export interface EmailView {
  readonly address: string;
  readonly verified: boolean;
  /** Where verifying happens (accounts/): `/send` asks a mail, `/code` types its code. */
  readonly verification: string;
  /** Where the form of a new address posts (accounts/email-change-routes.ts); none: not offered. */
  readonly change?: string;
  /** Whether the sign-in is fresh enough to change the address (sign-in-freshness.ts). */
  readonly fresh: boolean;
}

/**
 * The e-mail section: the address, verified or not, the form that mails a verification, and the
 * form of a new address (while the sign-in is fresh). The code's link is there whenever a mail may
 * have been sent, so the page looks the same after any change asked for.
 */
function emailSection(view: PageView, csrfToken: string, email: EmailView | undefined): string {
  if (email === undefined) return '';
  const { base, text } = view;
  const { t } = text;
  const address = markup(verbatim(email.address, 'strong'));
  const csrf = `<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">`;
  const state = email.verified
    ? `<p class="section-text">${t('account.email.verified', { email: address })}</p>\n`
    : `<p class="section-text">${t('account.email.unverified', { email: address })}</p>
<form method="post" action="${base}${escapeHtml(email.verification)}/send" class="stack">
${csrf}
<button type="submit" class="button secondary">${t('account.email.send')}</button>
</form>
`;
  const code = `<p class="fine-print"><a href="${base}${escapeHtml(email.verification)}/code">${t('account.email.enter-code')}</a></p>\n`;
  return `<section class="email" aria-labelledby="email-title">
<p class="list-title section-title" id="email-title">${t('account.email.title')}</p>
${state}${email.change === undefined ? '' : changeForm(view, csrf, email.change, email.fresh)}${email.verified && email.change === undefined ? '' : code}</section>
`;
}

/** A new address: the form while the sign-in is fresh, else what to do first. */
function changeForm(view: PageView, csrf: string, action: string, fresh: boolean): string {
  const { base, text } = view;
  const { t } = text;
  if (!fresh) return `<p class="section-text">${t('account.email.change-fresh')}</p>\n`;
  return `<form method="post" action="${base}${escapeHtml(action)}" class="stack">
${csrf}
<label for="new-email">${t('account.email.change-label')}</label>
<input id="new-email" name="email" type="email" autocomplete="email" autocapitalize="none" spellcheck="false" maxlength="254" aria-describedby="new-email-hint" required>
<p id="new-email-hint" class="section-text">${t('account.email.change-hint')}</p>
<button type="submit" class="button secondary">${t('account.email.change-submit')}</button>
</form>
`;
}

/** Federation: one linked upstream provider on the account page; unlinked by federation/'s POST /account/unlink. */
export interface LinkedProviderView {
  readonly issuer: string;
  readonly subject: string;
  readonly providerName: string;
  /** When it was linked, epoch seconds. */
  readonly since: number;
}

/** The account page's section listing linked providers, each with its unlink form. */
export function renderLinkedProviders(
  view: PageView,
  csrfToken: string,
  linked: readonly LinkedProviderView[],
): string {
  if (linked.length === 0) return '';
  const { base, text } = view;
  const { t } = text;
  const items = linked
    .map(
      (l) => `<li class="application"><div class="application-name">${verbatim(l.providerName, 'strong')}
<span class="application-dates">${t('account.linked.since', { since: text.date(l.since) })}</span></div>
<form method="post" action="${base}/account/unlink">
<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="issuer" value="${escapeHtml(l.issuer)}">
<input type="hidden" name="subject" value="${escapeHtml(l.subject)}">
<button type="submit" class="button secondary">${t('account.linked.unlink')}</button>
</form></li>`,
    )
    .join('\n');
  return `<p class="list-title">${t('account.linked.title')}</p>
<ul class="applications linked-providers">
${items}
</ul>
`;
}

function application(view: PageView, csrfToken: string, a: ApplicationView, now: number): string {
  const { base, text } = view;
  const { t } = text;
  const scopes = a.scopes.map((words) => `<li>${words}</li>`).join('');
  const used = timeHtml(a.lastUsed, text.relative(a.lastUsed, now));
  return `<li class="application">
<div class="application-head">${clientMark(a.client, view.base)}<div class="application-name">${clientNameHtml(a.client)}${clientClaimHtml(view, a.client)}
<span class="application-dates">${t('account.apps.dates', { since: text.date(a.since), used: markup(used) })}</span></div></div>
<ul class="application-scopes">${scopes}</ul>
<form method="post" action="${base}/account/revoke">
<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="client_id" value="${escapeHtml(a.clientId)}">
<button type="submit" class="button secondary">${t('account.apps.remove')}</button>
</form>
</li>`;
}

/**
 * The user's language (OIDC Core §5.1 `locale`), as the pages speak it: each language in its own
 * name, or none (the browser's, through Accept-Language). Saved by POST /account/language.
 */
function languageForm(view: PageView, csrfToken: string, locale: string | undefined): string {
  const { base, text } = view;
  const { t } = text;
  const option = (value: string, label: string, lang?: string): string =>
    `<option value="${value}"${lang ? ` lang="${lang}" translate="no"` : ''}${value === (locale ?? '') ? ' selected' : ''}>${label}</option>`;
  const options = [
    option('', t('account.language.automatic')),
    ...SUPPORTED_LOCALES.map((l) => option(l, escapeHtml(LOCALE_NAMES[l]), l)),
  ];
  return `<section class="language" aria-labelledby="language-title">
<p class="list-title section-title" id="language-title">${t('account.language.title')}</p>
<form method="post" action="${base}/account/language" class="stack">
<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
<label for="locale">${t('account.language.label')}</label>
<select id="locale" name="locale">${options.join('')}</select>
<button type="submit" class="button secondary">${t('account.language.save')}</button>
</form>
</section>`;
}

export function renderAccountPage(view: PageView, page: AccountPage): string {
  const { base, text } = view;
  const { t } = text;
  const list =
    page.applications.length === 0
      ? `<p class="lead">${t('account.apps.none')}</p>`
      : `<p class="list-title">${t('account.apps.title')}</p>
<ul class="applications">
${page.applications.map((a) => application(view, page.csrfToken, a, page.now)).join('\n')}
</ul>`;
  const notice =
    page.notice === undefined ? '' : `<p class="notice" role="status">${t(page.notice.id, page.notice.values)}</p>\n`;
  return layout(
    view,
    t('account.title'),
    `<div class="parties">${monogram(page.username, 'user')}</div>
<h1>${t('account.title')}</h1>
<p class="signed-in">${t('common.signed-in-as', { username: page.username })}</p>
${notice}${list}
${page.security ?? ''}
${page.passkeys ?? ''}
${emailSection(view, page.csrfToken, page.email)}${renderLinkedProviders(view, page.csrfToken, page.linked ?? [])}${languageForm(view, page.csrfToken, page.locale)}
${page.ownData ?? ''}<p class="fine-print">${t('account.fine-print')} · <a href="${base}/logout">${t('account.sign-out')}</a></p>`,
  );
}
