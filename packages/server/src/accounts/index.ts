import type { BrowserPage } from '../authorize/page.js';
import { emailChangePage } from './email-change-routes.js';
import { emailVerificationPage } from './email-verification-routes.js';
import { invitationPage } from './invitation-routes.js';
import { passwordResetPage } from './password-reset-routes.js';
import { signUpPage } from './sign-up-routes.js';
import { ownDataPage } from './own-data-routes.js';

/**
 * Self-service accounts (docs/accounts.md): what people do with their own account without an
 * operator, one file per flow, each page an entry of the pages table served on the authorization
 * pages' context (app.ts passes them in).
 *
 * | flow           | files                                                  | paths                           |
 * |----------------|--------------------------------------------------------|---------------------------------|
 * | password reset | password-reset.ts, -routes.ts, -pages.ts                | /password-reset, .../confirm    |
 * | e-mail verification | email-verification.ts, -routes.ts, -pages.ts      | /email-verification, .../send, .../code |
 * | address change | email-change.ts, -routes.ts (verified as above)          | /account/email                  |
 * | invitation     | invitation.ts, -acceptance.ts, -routes.ts, -pages.ts     | /invitation, .../accept         |
 * | sign-up        | sign-up.ts, -routes.ts, -pages.ts                       | /sign-up                        |
 * | own data       | own-data.ts, -routes.ts                                 | /account/data, /account/delete  |
 *
 * The mails are rendered from the catalog (account-mail.ts) and queued in the outbox (mail/) in
 * the transaction of the change that causes them.
 */
export const ACCOUNT_PAGES: readonly BrowserPage[] = [
  passwordResetPage,
  emailVerificationPage,
  emailChangePage,
  invitationPage,
  signUpPage,
  ownDataPage,
];

export { PASSWORD_RESET_PATH } from './password-reset.js';
export { EMAIL_VERIFICATION_PATH, emailCodesOf } from './email-verification.js';
export { EMAIL_CHANGE_PATH } from './email-change.js';
export { SIGN_UP_PATH } from './sign-up.js';
export { DELETE_ACCOUNT_PATH, OWN_DATA_PATH } from './own-data.js';
export {
  describeInvitation,
  INVITATION_PATH,
  INVITATION_TTL,
  inviteUser,
  listInvitations,
  MAX_INVITATION_TTL,
  revokeInvitation,
  type InvitationOrder,
  type InvitationServices,
  type InvitationView,
} from './invitation.js';
