import assert from 'node:assert/strict';
import type { PageAnswer } from './_authorize.js';
import type { ArrivedMail } from './_smtp.js';

/** The verification link's secret in a mail, from its text body. */
export function verificationToken(mail: ArrivedMail | undefined): string {
  const token = /\/email-verification\?token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
  assert.ok(token, `a verification link in ${mail?.text}`);
  return token;
}

/** The page without the values that differ per answer: the form's CSRF token. */
export const comparable = (page: PageAnswer): string => page.html.replace(/name="csrf_token" value="[^"]*"/g, '');

/** The names of a page's headers, sorted: two answers that must not differ have the same. */
export function headerNames(page: PageAnswer): string[] {
  const seen: string[] = [];
  page.headers.forEach((_value, name) => seen.push(name));
  return seen.sort();
}
