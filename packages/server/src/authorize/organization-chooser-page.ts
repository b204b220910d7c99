import { escapeHtml, layout, verbatim, type PageView } from '../html/layout.js';
import { consentHeading } from './consent-page.js';
import type { ClientLabel } from './client-label.js';

/** The chooser at /authorize: a user of several organizations picks the one the application's tokens are for. */
export interface OrganizationChooserPage {
  readonly client: ClientLabel;
  readonly username: string;
  /** Each organization by its name, and the /authorize URL (the request with `organization`) that picks it. */
  readonly organizations: readonly { readonly name: string; readonly href: string }[];
}

export function renderOrganizationChooserPage(view: PageView, page: OrganizationChooserPage): string {
  const { t } = view.text;
  const items = page.organizations
    .map((o) => `<li><a class="button secondary" href="${escapeHtml(o.href)}">${verbatim(o.name)}</a></li>`)
    .join('\n');
  return layout(
    view,
    t('organizations.choose.title'),
    `${consentHeading(view, page)}<p class="list-title">${t('organizations.choose.lead', { client: page.client.name })}</p>
<ul class="organizations" aria-label="${t('organizations.choose.title')}">
${items}
</ul>`,
  );
}
