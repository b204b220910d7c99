import assert from 'node:assert/strict';

/** The key an enrolment page shows in text (the QR code's secret), without its spaces. */
export function enrolmentSecret(html: string): string {
  const match = /<p class="secret" id="totp-secret">([A-Z2-7 ]+)<\/p>/.exec(html);
  assert.ok(match, 'the page shows the key in text');
  return (match[1] as string).replaceAll(' ', '');
}

/** The recovery codes a page shows once. */
export function recoveryCodes(html: string): string[] {
  const list = /<ul class="recovery-codes" id="recovery-codes">(.*?)<\/ul>/s.exec(html)?.[1] ?? '';
  return [...list.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1] as string);
}
