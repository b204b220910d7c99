import { accountPage } from './account.js';
import { clientLogoPage } from './client-presentation.js';
import { consentPage } from './consent.js';
import { devicePage } from './device.js';
import { authorizePage } from './endpoint.js';
import { signInPage } from './login.js';
import { logoutPage } from './logout.js';
import { passkeyPage } from './passkey.js';
import type { BrowserPage } from './page.js';

/**
 * The pages of the authorization flow, one entry per page (see `page.ts` for what an entry
 * declares); each is served on the pages' context (form bodies only, errors as HTML pages).
 *
 * | page      | file        | paths and methods                                                    |
 * |-----------|-------------|----------------------------------------------------------------------|
 * | authorize | endpoint.ts | GET, POST /authorize (the OAuth endpoint: sign-in, consent or a code) |
 * | sign-in   | login.ts    | POST /login (every sign-in step: the password, then a second factor)  |
 * | consent   | consent.ts  | POST /consent                                                        |
 * | logout    | logout.ts   | GET, POST /end-session (RP-Initiated Logout); GET, POST /logout      |
 * | account   | account.ts  | GET /account; POST /account/revoke, /account/login; GET, POST         |
 * |           |             | /account/two-step; POST /account/two-step/remove, /account/recovery-codes |
 * | device    | device.ts   | GET, POST /device; POST /device/login; POST /device/consent (RFC 8628) |
 * | passkey   | passkey.ts  | GET /assets/passkey.js; POST /login/passkey (passwordless sign-in);   |
 * |           |             | POST /account/passkeys, /account/passkeys/rename, .../remove          |
 * | client-logos | client-presentation.ts | GET /client-logos/{id} (a client's logo_uri, from this origin) |
 *
 * POST /authorize, like POST /end-session, takes no CSRF token: it is a client's cross-site form by
 * design (OIDC Core §3.1.2.1), which starts a flow and acts for nobody; the consent it leads to is
 * the CSRF-protected POST /consent.
 *
 * Adding a page (a sign-in factor's, say) is a file in this folder and a line in this list; its HTML
 * uses the layout, escaping, CSRF field and page headers of `src/html/`.
 */
export const BROWSER_PAGES: readonly BrowserPage[] = [
  authorizePage,
  signInPage,
  consentPage,
  logoutPage,
  accountPage,
  devicePage,
  passkeyPage,
  clientLogoPage,
];
