import { escapeHtml, markup, verbatim, type PageView } from '../html/layout.js';

/** Where the account page's "Your data" forms post (accounts/own-data.ts, passed in by app.ts). */
export interface OwnDataPaths {
  /** POST: the JSON of everything stored about the user (GDPR Art. 15, 20). */
  readonly download: string;
  /** POST: deletes the account (GDPR Art. 17), after a fresh sign-in and the username typed. */
  readonly remove: string;
}

/**
 * The account page's "Your data" section: "Download my data", and "Delete my account" with the
 * username to type; a stale sign-in is told to confirm it's them first (the security section's
 * freshness rule, sign-in-freshness.ts), and gets no form.
 */
export function renderOwnDataSection(
  view: PageView,
  section: {
    readonly paths: OwnDataPaths;
    readonly csrfToken: string;
    readonly username: string;
    readonly fresh: boolean;
  },
): string {
  const { base, text } = view;
  const { t } = text;
  const csrf = `<input type="hidden" name="csrf_token" value="${escapeHtml(section.csrfToken)}">`;
  const username = markup(verbatim(section.username, 'strong'));
  const remove = section.fresh
    ? `<form method="post" action="${base}${escapeHtml(section.paths.remove)}" class="stack">
${csrf}
<label for="confirm-username">${t('account.delete.confirm', { username })}</label>
<input id="confirm-username" name="username" type="text" autocomplete="off" autocapitalize="none" autocorrect="off" spellcheck="false" maxlength="64" required>
<button type="submit" class="button secondary">${t('account.delete.submit')}</button>
</form>`
    : `<p class="section-text">${t('account.delete.fresh')}</p>`;
  return `<section class="own-data" aria-labelledby="own-data-title">
<p class="list-title section-title" id="own-data-title">${t('account.data.title')}</p>
<p class="section-text">${t('account.data.lead')}</p>
<form method="post" action="${base}${escapeHtml(section.paths.download)}" class="stack">
${csrf}
<button type="submit" class="button secondary">${t('account.data.download')}</button>
</form>
<p class="list-title section-title">${t('account.delete.title')}</p>
<p class="section-text">${t('account.delete.lead')}</p>
${remove}
</section>
`;
}
