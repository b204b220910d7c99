import assert from 'node:assert/strict';
import { hidden } from './_browser.js';

/** The client id in the account page's entry of the application named `name` (one entry per application). */
export function clientIdOnAccountPage(html: string, name: string): string {
  const entry = html.split('<li class="application">').find((part) => part.includes(`>${name}</strong>`));
  assert.ok(entry, `the account page lists ${name}`);
  return hidden(entry, 'client_id');
}
