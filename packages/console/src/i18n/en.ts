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
  'nav.users': 'Users',
  'users.title': 'Users',
  'users.search': 'Search by username',
  'users.state': 'State',
  'users.state.all': 'All',
  'users.state.enabled': 'Enabled',
  'users.state.disabled': 'Disabled',
  'users.apply': 'Search',
  'users.none': 'No user matches.',
  'users.caption': 'Users, by username',
  'users.username': 'Username',
  'users.name': 'Name',
  'users.email': 'Email',
  'users.next': 'Next page',
  'users.first': 'First page',
  'users.create': 'Add a user',
  'users.create.submit': 'Add user',
  'users.create.second-factor': 'Must set up a second factor at the first sign-in',
  'users.created.password': 'The password of {username}, shown only now:',
  'common.copy': 'Copy',
  'common.copied': 'Copied',
  'common.type-to-confirm': 'Type {name} to confirm',
  'user.back': 'All users',
  'user.details': 'Details',
  'user.subject': 'Subject',
  'user.created': 'Created',
  'user.disabled-since': 'Disabled since {time}',
  'user.disable': 'Disable',
  'user.disable.confirm': 'Click again to disable {username}',
  'user.disabled': '{username} is disabled: signed out, its grants revoked.',
  'user.enable': 'Enable',
  'user.enabled': '{username} may sign in again.',
  'user.factors': 'Second factors',
  'user.factors.none': 'No second factor.',
  'user.factors.reset': 'Remove every second factor',
  'user.factors.reset.done': 'The second factors are removed.',
  'user.grants': 'Applications holding a grant',
  'user.grants.none': 'No grant.',
  'user.grants.revoke': 'Revoke',
  'user.grants.revoke.confirm': 'Click again to revoke {client}',
  'user.grants.revoked': 'Revoked',
  'user.grants.revoked.done': 'The grant of {client} is revoked.',
  'table.scope': 'Scope',
  'table.created': 'Created',
} as const;

export type MessageId = keyof typeof en;
export type Catalog = Readonly<Record<MessageId, string>>;
