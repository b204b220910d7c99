import { escapeHtml } from '../html/layout.js';
import type { MailMessage } from './message.js';

/**
 * The message of `gatehouse mail test --to ADDR`: proof that mail leaves this server, in the
 * product's name (BRAND_NAME). Plain English
 * for now; its text moves to the message catalog with the pages and languages (DESIGN.md, "Pages,
 * languages and brand"), keys `mail.test.subject`, `mail.test.text`, `mail.test.html`.
 */
export function testMessage(to: string, issuer: string, product = 'Gatehouse'): MailMessage {
  const name = escapeHtml(product);
  return {
    to,
    kind: 'test',
    locale: 'en',
    subject: `${product} test message`,
    text: `This is a test message from the ${product} server at ${issuer}.\n\nIf you can read it, its mail works.\n`,
    html: `<p>This is a test message from the ${name} server at <a href="${escapeHtml(issuer)}">${escapeHtml(issuer)}</a>.</p><p>If you can read it, its mail works.</p>`,
    links: [issuer],
  };
}
