/**
 * The console's source catalog, in English: ICU MessageFormat (the format of the server's page
 * catalogs, server/src/i18n/), keyed by a stable id grouped by the view that shows it. Every other
 * locale's file has exactly these ids (test/catalogs.test.ts). What the admin API answers (problem
 * titles and details, event names, codes) is shown as sent, in English.
 */
export const en = {
  'console.title': 'Gatehouse console',
  'console.skip': 'Skip to content',
  'console.nav': 'Console sections',
  'console.signed-in-as': 'Signed in as {name}',
  'console.sign-out': 'Sign out',
  'console.loading': 'Loading…',

  'nav.dashboard': 'Dashboard',

  'welcome.title': 'Sign in to the console',
  'welcome.lead':
    'Operators manage users, applications and signing keys here. Signing in asks for your password and a second factor.',
  'welcome.sign-in': 'Sign in',
  'welcome.signed-out': 'You are signed out.',

  'callback.title': 'Signing you in…',

  'refused.second-factor.title': 'A second factor is required',
  'refused.second-factor.detail':
    'The console accepts only a sign-in with two factors. Add a passkey or an authenticator app on your account page, then sign in again.',
  'refused.role.title': 'You are signed in but have no admin role',
  'refused.role.detail':
    'Your account {name} holds none of the roles admin, user-manager or auditor. Ask an administrator to give you one, then sign in again.',
  'refused.callback.title': 'The sign-in could not be completed',
  'refused.callback.detail':
    'The answer that came back does not belong to a sign-in this console started, or the sign-in was cancelled. Start again.',
  'refused.invalid.title': 'The sign-in could not be checked',
  'refused.invalid.detail': 'The identity token is not for this console, or has expired. Start again.',
  'refused.not-fresh.title': 'Sign in again to continue',
  'refused.not-fresh.detail': 'This action needs a sign-in from the last few minutes.',
  'refused.sign-in-again': 'Sign in again',
  'refused.account': 'Open your account page',

  'problem.title': 'The admin API refused this',
  'problem.status': 'HTTP status {status}',
  'problem.retry': 'Try again',

  'dashboard.title': 'Dashboard',
  'dashboard.keys': 'Signing keys',
  'dashboard.keys.current': 'Current key',
  'dashboard.keys.count': '{count, plural, one {# key published} other {# keys published}}',
  'dashboard.failures': 'Recent failures',
  'dashboard.failures.caption':
    'Failed sign-ins, failed client authentications and refresh-token reuse in the last 24 hours',
  'dashboard.failures.none': 'No failures in the last 24 hours.',
  'dashboard.failures.more': 'Showing the latest {count}.',

  'table.when': 'When',
  'table.event': 'Event',
  'table.client': 'Application',
  'table.subject': 'User',
  'table.reason': 'Reason',
} as const;

export type MessageId = keyof typeof en;
export type Catalog = Readonly<Record<MessageId, string>>;
