import { GATEHOUSE_BRAND } from '../html/brand.js';
import { escapeHtml } from '../html/layout.js';
import type { MessageId, MessageValues, PageText } from '../i18n/index.js';
import type { MailMessage } from '../mail/index.js';

/** What a mail about an account says, as message ids of the catalog: every word in the person's language. */
export interface AccountMailContent {
  /** The outbox's kind: `password_reset`, … */
  readonly kind: string;
  readonly to: string;
  /** The user the mail is about (`users.subject`): the outbox's audit events name it. */
  readonly userSubject: string;
  readonly subject: MessageId;
  /** The paragraphs before the action, each a message with its values. */
  readonly before: readonly (readonly [MessageId, MessageValues?])[];
  /** The one thing to do: a button in HTML, the bare URL in text. */
  readonly action: { readonly label: MessageId; readonly href: string };
  /** The paragraphs after it (what to do when the mail was not expected). */
  readonly after: readonly (readonly [MessageId, MessageValues?])[];
  /** The server's URL, named in the footer. */
  readonly issuer: string;
}

/** The catalog's HTML as plain text: the tags dropped, the escapes undone (escapeHtml's and the named five). */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(
      /&(lt|gt|quot|apos|amp);/g,
      (_m, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] ?? '',
    );
}

/**
 * A mail about an account, rendered from the catalog in `text`'s language: a plain-text body and
 * an HTML body with the brand, the same words in both, and the link as the only action (the
 * embedded transport prints it). Values a person typed (a name) are escaped by the catalog in the
 * HTML body and kept as typed in the text body; the outbox refuses any line break in the subject.
 */
export function accountMail(text: PageText, content: AccountMailContent): MailMessage {
  const { t } = text;
  const product = GATEHOUSE_BRAND.name;
  const before = content.before.map(([id, values]) => t(id, values));
  const after = content.after.map(([id, values]) => t(id, values));
  const label = t(content.action.label);
  const footer = t('mail.footer', { product, issuer: content.issuer });
  const href = escapeHtml(content.action.href);
  const paragraphs = (list: readonly string[]): string =>
    list.map((p) => `<p style="margin:0 0 16px">${p}</p>`).join('\n');
  const html = `<!doctype html>
<html lang="${text.locale}" dir="${text.dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t(content.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2328">
<div style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p style="margin:0 0 16px;font-weight:600" translate="no">${escapeHtml(product)}</p>
${paragraphs(before)}
<p style="margin:24px 0"><a href="${href}" style="display:inline-block;background:#1f6feb;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:600">${label}</a></p>
<p style="margin:0 0 16px;font-size:13px;word-break:break-all"><a href="${href}">${href}</a></p>
${paragraphs(after)}
<p style="margin:24px 0 0;font-size:12px;color:#59636e">${footer}</p>
</div>
</body>
</html>
`;
  const plain = [...before.map(plainText), `${plainText(label)}:\n${content.action.href}`, ...after.map(plainText)];
  return {
    to: content.to,
    kind: content.kind,
    locale: text.locale,
    subject: plainText(t(content.subject)),
    text: `${plain.join('\n\n')}\n\n-- \n${plainText(footer)}\n`,
    html,
    links: [content.action.href],
    userSubject: content.userSubject,
  };
}
