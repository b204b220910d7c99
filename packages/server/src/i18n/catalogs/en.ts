/**
 * The source catalog: every message of the pages, in English, keyed by a stable id grouped by the
 * page area that shows it. ICU MessageFormat (plurals, selects, dates); tags name markup the page
 * supplies (`<b>` bold, `<code>`, and per message e.g. `<client>`, `<link>`): a translation keeps the
 * ids, arguments and tags and changes the words. Every other locale's file is checked against this
 * one (test/page-text.test.ts).
 */
export const en = {
  // The layout of every page (html/layout.ts)
  'layout.title': '{page} · {product}',
  'layout.product-title': '{product}',
  'layout.footer': 'Protected by {product} · OAuth 2.0 authorization server',
  'layout.languages': 'Language',

  // The error page of the flows (html/layout.ts)
  'error.details': 'Details, as sent to the application',
  'error.what-to-do': 'What to do',
  'error.try-again': 'Try again',
  'error.fine-print': 'Error <code>{error}</code> · HTTP {status} · <link>About this error</link>',
  'error.not-found.title': 'Page not found',
  'error.not-found.detail': 'There is no page at {path}.',
  'error.not-found.action': 'Check the address, or go to the <link>home page</link> to see what this server offers.',

  // The form_post answer to an application (html/authorization-response.ts)
  'form-post.title': 'Returning to the application',
  'form-post.no-script': 'Your browser runs no script here, so continue by hand.',
  'form-post.continue': 'Continue',

  // Names of an application, shared by the sign-in, consent, device and account pages (authorize/client-label.ts)
  'client.claim': 'Calls itself “{name}”, a name nobody checked',
  'client.links': 'About the application',
  'client.link.home': 'Website',
  'client.link.policy': 'Privacy policy',
  'client.link.terms': 'Terms of service',
  'client.any': 'the application',
  'common.signed-in-as': 'Signed in as <b>{username}</b>',

  // Sign-in (authorize/login-page.ts)
  'sign-in.title': 'Sign in',
  'sign-in.lead.account': 'to your account',
  'sign-in.lead.client': 'to continue to <app>{client}</app>',
  'sign-in.username': 'Username',
  'sign-in.password': 'Password',
  'sign-in.submit': 'Sign in',
  'sign-in.next.consent': 'Next, you will choose what {client} may do with your account.',
  'sign-in.next.account': 'You will see the applications that can use your account, and how you sign in.',
  'sign-in.upstreams.title': 'Or sign in with your organization',
  'sign-in.upstreams.email': 'Work e-mail',
  'sign-in.upstreams.continue': 'Continue',
  'sign-in.upstreams.provider': 'Sign in with {provider}',
  'sign-in.forgot-password': 'Forgot your password?',
  'sign-in.alert.check': 'Check them and try again.',
  'sign-in.alert.passkey': 'Try again, or use your password.',
  'sign-in.alert.wait-seconds': 'Try again in {seconds, plural, one {# second} other {# seconds}}.',
  'sign-in.alert.wait-minutes': 'Try again in {minutes, plural, one {# minute} other {# minutes}}.',

  // Passkeys (authorize/passkey-page.ts)
  'passkey.or': 'or',
  'passkey.sign-in': 'Sign in with a passkey',
  'passkey.confirm': 'Confirm with a passkey',
  'passkey.use': 'Use a passkey',
  'passkey.checking': 'Checking your passkey…',
  'passkey.not-used': 'No passkey was used. Try again, or use your password.',
  'passkey.failed': 'The passkey did not work here. Reload the page and try again.',
  'passkeys.title': 'Passkeys',
  'passkeys.none':
    'No passkey yet. A passkey signs you in without a password, with your fingerprint, face, screen lock or security key.',
  'passkeys.added': 'Added {added}',
  'passkeys.not-used': 'Not used yet',
  'passkeys.last-used': 'Last used {when}',
  'passkeys.synced': 'Synced',
  'passkeys.rename-label': 'New name for {name}',
  'passkeys.rename': 'Rename',
  'passkeys.remove': 'Remove passkey',
  'passkeys.name-label': 'Name of the new passkey (optional)',
  'passkeys.name-placeholder': 'Work laptop',
  'passkeys.add': 'Add a passkey',

  // Second factors (authorize/factor-pages.ts)
  'factor.title': 'Two-step verification',
  'factor.other-ways': 'Other ways to verify',
  'factor.verify': 'Verify',
  'factor.label.otp': 'Code from your authenticator app',
  'factor.label.recovery-code': 'Recovery code',
  'factor.label.passkey': 'A passkey',
  'factor.alert.replayed': 'That code was used already. Wait for the next one.',
  'factor.alert.wrong-recovery-code': 'That recovery code is wrong or was used already.',
  'factor.alert.enrolment-refused': 'Start again from the application.',
  'factor.alert.check': 'Check the code and try again.',
  'verify-email.title': 'Verify your e-mail address',
  'verify-email.lead': 'We sent a 6-digit code to {email}. Enter it to finish signing in.',
  'verify-email.code': 'Code from the e-mail',
  'verify-email.resend': 'Send a new code',
  'verify-email.resent': 'A new code is on its way. It works for 24 hours.',
  'verify-email.no-address':
    'This account has no e-mail address, and signing in here needs a verified one. Ask your administrator to add one.',
  'change-password.title': 'Choose your own password',
  'change-password.lead':
    'Your password was set by an administrator for your first sign-in. Choose a password of your own to continue.',
  'change-password.password': 'New password',
  'change-password.submit': 'Set the password and continue',
  'change-password.alert.unchanged': 'Choose a password other than the one you were given.',
  'terms.title': 'Terms of service',
  'terms.lead': 'To continue, read and accept the terms of service (version {version}).',
  'terms.open': 'Read the terms of service (opens in a new tab)',
  'terms.accept': 'Accept',
  'terms.decline': 'Decline',
  'terms.decline-note': 'If you decline, you are not signed in, and the application is told that you declined.',
  'enrol.title': 'Set up two-step verification',
  'enrol.reason':
    'To continue to <app>{client}</app>, your sign-in needs a second step: after your password, a code from an app on your phone.',
  'enrol.scan':
    'Scan this code with an authenticator app (such as Google Authenticator, 1Password or Aegis), then type the six-digit code it shows.',
  'enrol.qr': 'QR code for your authenticator app',
  'enrol.cannot-scan': 'Cannot scan it? Enter this key in the app:',
  'enrol.code': 'Code from the app',
  'enrol.submit': 'Turn on two-step verification',
  'enrol.not-now': 'Not now: back to your account',
  'recovery.title': 'Your recovery codes',
  'recovery.heading': 'Save your recovery codes',
  'recovery.lead':
    'Each code signs you in once if you lose your authenticator app. Keep them somewhere safe: this is the only time they are shown.',
  'recovery.continue': 'I saved them, continue',

  // Consent (authorize/consent-page.ts)
  'consent.title': 'Allow {client}?',
  'consent.heading': '<app>{client}</app> wants to access your account',
  'consent.document-note':
    '<b>No administrator added this application.</b> It describes itself from <site>{host}</site>, the only thing {product} could check. Allow it only if you trust that site.',
  'consent.self-registered':
    '<b>This application registered itself.</b> No administrator added it, so its name has not been checked: allow it only if you started it yourself.',
  'consent.no-access': '{client} asks only to know that you are signed in; it gets no access to your data.',
  'consent.will-allow': 'This will allow {client} to:',
  'consent.deny': 'Deny',
  'consent.allow': 'Allow',
  'consent.organization': 'For the organization {organization}',
  'organizations.choose.title': 'Choose an organization',
  'organizations.choose.lead': 'Which organization are you signing in to {client} for?',
  'consent.fine-print':
    'Either way, you will be sent back to <b>{destination}</b>. You can withdraw access later on your <account>account page</account>.',
  'scope.openid': 'Sign you in with your account',
  'scope.profile': 'See your name, username and language',
  'scope.email': 'See your email address and whether it is verified',
  'scope.offline-access': 'Keep access while you are away',
  'scope.read': 'See your {things}',
  'scope.write': 'Create, change and delete your {things}',

  // Devices, RFC 8628 (authorize/device-pages.ts)
  'device.title': 'Connect a device',
  'device.lead': 'Enter the code shown on your device.',
  'device.code': 'Code',
  'device.code-placeholder': 'XXXX-XXXX',
  'device.continue': 'Continue',
  'device.fine-print': 'Only enter a code from a device you are setting up yourself.',
  'device.check-code': 'Check that your device shows <usercode>{userCode}</usercode>',
  'device.consent-fine-print':
    'If the codes differ, or you did not start this on a device, choose Deny. You can withdraw access later on your <account>account page</account>.',
  'device.connected.title': 'Device connected',
  'device.connected.text': '{client} now has access. Go back to your device: it continues by itself.',
  'device.denied.title': 'Access denied',
  'device.denied.text': '{client} was not given access. You can close this page.',
  'device.alert.check': 'Check the code on your device and type it again.',

  // Signing out (authorize/account-pages.ts)
  'logout.title': 'Sign out',
  'logout.heading': 'Sign out of {product}?',
  'logout.not-signed-in': 'You are not signed in.',
  'logout.asked-by': '<app>{client}</app> asked to sign you out.',
  'logout.lead': 'The next time an application sends you here, you will sign in again.',
  'logout.submit': 'Sign out',
  'logout.account': 'Your account',
  'signed-out.title': 'Signed out',
  'signed-out.heading': 'You are signed out',
  'signed-out.lead': 'You can close this window. Applications you use will ask you to sign in again.',

  // The account page (authorize/account-pages.ts, account-security-page.ts)
  'account.title': 'Your account',
  'account.apps.none': 'No application has access to your account.',
  'account.apps.title': 'Applications with access to your account',
  'account.apps.dates': 'Allowed since {since} · Last used {used}',
  'account.apps.remove': 'Remove access',
  'account.fine-print': 'Removing access signs the application out at once: its tokens stop working.',
  'account.sign-out': 'Sign out',
  'account.linked.title': 'Identity providers you sign in with',
  'account.linked.since': 'Linked since {since}',
  'account.linked.unlink': 'Unlink',
  'account.notice.access-removed': 'Access removed: the application can no longer use your account.',
  'account.notice.access-removed-named':
    'Access removed: {client} can no longer use your account. Its tokens stopped working.',
  'account.notice.two-step-on': 'Two-step verification is on. Keep your recovery codes somewhere safe.',
  'account.notice.two-step-off': 'The authenticator app is turned off, and its recovery codes no longer work.',
  'account.notice.recovery-codes': 'You have new recovery codes. The old ones no longer work.',
  'account.notice.passkey-added': 'Passkey added. It signs you in without a password.',
  'account.notice.passkey-renamed': 'Passkey renamed.',
  'account.notice.passkey-removed': 'Passkey removed. It no longer signs you in.',
  'account.notice.language': 'Your language is saved.',
  'account.language.title': 'Language',
  'account.language.label': 'Language of these pages and of the applications that ask',
  'account.language.automatic': 'As my browser asks',
  'account.language.save': 'Save language',
  'security.title': 'How you sign in',
  'security.on-app':
    'Two-step verification is <b>on</b>: codes from your authenticator app, since {since}. {codes, plural, one {# recovery code left.} other {# recovery codes left.}}',
  'security.on-app-passkeys':
    'Two-step verification is <b>on</b>: codes from your authenticator app, since {since}, and {passkeys, plural, one {# passkey} other {# passkeys}}. {codes, plural, one {# recovery code left.} other {# recovery codes left.}}',
  'security.on-passkeys': 'Two-step verification is <b>on</b>: {passkeys, plural, one {# passkey} other {# passkeys}}.',
  'security.off': 'Two-step verification is <b>off</b>.',
  'security.confirm':
    "<b>Confirm it's you to make changes.</b> Setting up or turning off two-step verification, and adding, renaming or removing a passkey, needs a sign-in of the last {minutes, plural, one {# minute} other {# minutes}}.",
  'security.confirm-submit': "Confirm it's you",
  'security.add-app': 'Add an authenticator app',
  'security.set-up': 'Set up two-step verification',
  'security.new-codes': 'New recovery codes',
  'security.turn-off': 'Turn off',

  // Federation (federation/federation-pages.ts)
  'link.title': 'Link your account',
  'link.lead':
    'An account here already uses the e-mail address that <b>{provider}</b> gave. If it is yours, enter its password to sign in with <b>{provider}</b> from now on.',
  'link.lead-passkey':
    'An account here already uses the e-mail address that <b>{provider}</b> gave. If it is yours, enter its password or use one of its passkeys to sign in with <b>{provider}</b> from now on.',
  'link.password': 'Password of that account',
  'link.submit': 'Link and continue',
  'link.passkey': 'Use a passkey of that account',
  'link.fine-print':
    "Not your account? Close this window: nothing is linked without the account's password or passkey.",
  'link.alert.wrong-password': 'Wrong password',
  'link.alert.check': 'Nothing was linked. Check the password and try again.',
  'link.alert.passkey': 'Nothing was linked. Try the passkey again, or the password.',
  'continue.title': 'Signed in',
  'continue.lead': 'Taking you back to the application…',
  'continue.button': 'Continue',

  // The home page (pages/landing.ts)
  'landing.lead':
    'The OAuth 2.0 authorization server and OpenID Provider at <b>{issuer}</b>. Applications send you here to sign in and to ask for access to your account.',
  'landing.account': 'Your account',
  'landing.account.what': 'the applications you allowed, and signing out',
  'landing.openid': 'OpenID Provider configuration',
  'landing.openid.what': 'OpenID Connect Discovery 1.0',
  'landing.metadata': 'Authorization server metadata',
  'landing.metadata.what': 'RFC 8414: endpoints, grants, scopes',
  'landing.jwks': 'Signing keys',
  'landing.jwks.what': 'the public keys of its tokens (JWKS)',
  'landing.api': 'REST API',
  'landing.api.what': 'the OpenAPI document of {prefix}',
  'landing.fine-print': 'Developers: start from the metadata; every error links to a page that explains it.',

  // The error catalog's pages (pages/problem-pages.ts)
  'problems.status': 'HTTP {status}',
  'problems.transient': 'transient: the same request may succeed later',
  'problems.permanent': 'permanent: retrying fails again',
  'problems.wire-title': 'Its <code>title</code> in a response: <wire>{title}</wire>',
  'problems.client-action': 'What the client must do',
  'problems.reasons': 'The <code>error_description</code> for each reason',
  'problems.every-error': 'Every error',
  'problems.home': 'Home',
  'problems.index.title': 'Errors',
  'problems.index.lead':
    'Every error this server answers, with what the client must do. An OAuth error names its page in <code>error_uri</code>; a problem (RFC 9457) in <code>type</code>.',
  'problems.index.oauth': 'OAuth 2.0 errors, with their reasons',
  'problems.index.problems': 'Problems (<code>application/problem+json</code>)',

  // The demo's callback (pages/demo-callback.ts, demo-sign-in.ts)
  'demo.served': 'Served because the server runs with <code>--demo</code>.',
  'demo.no-code.title': 'No code',
  'demo.no-code.heading': 'No authorization code',
  'demo.no-code.summary': 'The authorization request came back without a code this page can use.',
  'demo.no-code.again': 'Start again with the authorization URL <code>npm start</code> printed.',
  'demo.code.title': 'Authorization code',
  'demo.code.heading': 'Authorization code received',
  'demo.code.lead': "The authorization server sent the browser back here, to the demo's redirect URI.",
  'demo.code.exchange': 'Exchange it within {seconds, plural, one {# second} other {# seconds}}',
  'demo.code.verifier':
    'Put in the <code>code_verifier</code> of your authorization request (the one printed next to the URL you opened).',
  'demo.code.once': 'The code works once.',
  'demo.refused.title': 'Exchange refused',
  'demo.refused.heading': 'The code exchange was refused',
  'demo.refused.summary': "This page sent the code to /token for the demo's public client, which answered:",
  'demo.refused.again': 'Start again with the OpenID Connect URL <code>npm start</code> printed.',
  'demo.signed-in.title': 'Signed in',
  'demo.signed-in.heading': 'Signed in with OpenID Connect',
  'demo.signed-in.lead':
    "This page exchanged the code at /token, as the demo's public client, and got an ID token for scope <code>{scope}</code>. Its claims:",
  'demo.signed-in.nonce-ok': 'The nonce is the one of the printed request.',
  'demo.signed-in.nonce-wrong': 'The nonce is NOT the one of the printed request.',
  'demo.signed-in.check':
    "A client checks the token's signature with the keys at <link>/jwks</link> and its claims (OIDC Core §3.1.3.7); this page only shows them.",
  'demo.signed-in.userinfo': 'Ask /userinfo with the access token',

  // Password reset (accounts/password-reset-pages.ts) and its mail (accounts/account-mail.ts)
  'reset.title': 'Reset your password',
  'reset.lead':
    'Enter the username or the e-mail address of your account. We will send a link to choose a new password to its e-mail address.',
  'reset.identifier': 'Username or e-mail address',
  'reset.submit': 'Send the link',
  'reset.back': 'Back to sign-in',
  'reset.sent.title': 'Check your e-mail',
  'reset.sent.lead':
    'If an account matches what you typed and has an e-mail address, a link to choose a new password is on its way there. It works once, within {minutes, plural, one {# minute} other {# minutes}}.',
  'reset.sent.spam':
    'Nothing after a few minutes? Look in your spam folder, check what you typed, or ask your administrator.',
  'reset.new.title': 'Choose a new password',
  'reset.new.lead': 'For the account {username}.',
  'reset.new.password': 'New password',
  'reset.new.hint': 'At least {min} characters. A few unrelated words make a strong password that is easy to remember.',
  'reset.new.code-why': 'Your account has two-step verification: confirm it is you.',
  'reset.new.code': 'Code from your authenticator app, or a recovery code',
  'reset.new.submit': 'Set the new password',
  'reset.done.title': 'Password changed',
  'reset.done.lead': 'Your new password is set, and you are signed out everywhere. Sign in again with it.',
  'reset.done.grants': 'Applications that had access to your account lost it: allow them again when they ask.',
  'reset.done.sign-in': 'Sign in',
  'reset.alert.too-short': 'Use at least 8 characters.',
  'reset.alert.too-long': 'Use at most 1024 characters.',
  'reset.alert.too-common':
    'This password is common, was leaked, or is easy to guess from your account. Try a few unrelated words.',
  'mail.footer': 'Sent by {product} at {issuer}.',
  'mail.reset.subject': 'Reset your password',
  'mail.reset.lead':
    'Someone, probably you, asked to reset the password of your account {username}. To choose a new password, open this link within {minutes, plural, one {# minute} other {# minutes}}. It works once.',
  'mail.reset.action': 'Choose a new password',
  'mail.reset.ignore': 'If you did not ask for this, ignore this mail: your password stays as it is.',

  // E-mail verification (accounts/email-verification-pages.ts, the account page's section) and its mail
  'account.email.title': 'E-mail address',
  'account.email.verified': '{email} · verified',
  'account.email.unverified': '{email} · not verified yet. Verify it so that applications can rely on it.',
  'account.email.send': 'Send a verification mail',
  'account.email.enter-code': 'Enter the code from the mail',
  'account.notice.verification-sent': 'A verification mail is on its way. Its link and its code work for 24 hours.',
  'account.notice.verification-wait':
    'Too many verification mails were asked for. Open the newest one, or try again later.',
  'account.notice.email-verified': 'Your e-mail address is verified.',
  'verify.title': 'Verify your e-mail address',
  'verify.lead': 'Confirm that {email} is the address of the account {username}.',
  'verify.submit': 'Verify my address',
  'verify.code.title': 'Enter the verification code',
  'verify.code.lead': 'Type the six-digit code of the newest mail sent to {email}.',
  'verify.code.label': 'Verification code',
  'verify.code.submit': 'Verify',
  'verify.code.check': 'Check the code in the newest mail and try again.',
  'verify.back': 'Back to your account',
  'verify.done.title': 'Address verified',
  'verify.done.lead': '{email} is verified. Applications you allow can now rely on it.',
  'mail.verify.subject': 'Verify your e-mail address',
  'mail.verify.lead': 'Confirm that this is the e-mail address of your account {username}.',
  'mail.verify.action': 'Verify my address',
  'mail.verify.code':
    'Or type this code where the page asks for it: {code}. The link and the code work once, for {hours} hours.',
  'mail.verify.ignore': 'If you do not know this account, ignore this mail.',
  'invite.title': 'Accept the invitation',
  'invite.lead':
    'You are invited to {where}, with the address {email}. Choose a username and a password for your account.',
  'invite.username': 'Username',
  'invite.username-hint': 'Up to 64 characters: letters a–z, digits and . _ @ -, starting with a letter or a digit.',
  'invite.password': 'Password',
  'invite.submit': 'Create my account',
  'invite.alert.username-taken': 'That username is taken: choose another.',
  'invite.done.title': 'Your account is ready',
  'invite.done.lead': 'The account {username} is made and your address is verified. Sign in with your new password.',
  'invite.member.lead': 'You are invited to {where}, as your account {username}.',
  'invite.member.sign-in-first': 'Sign in as {username} first, then open the link in the mail again.',
  'invite.member.accept': 'Accept the invitation',
  'invite.joined.title': 'Invitation accepted',
  'invite.joined.lead': 'You have joined {where}.',
  'mail.invitation.subject': 'You are invited',
  'mail.invitation.lead':
    'You are invited to {where}. Choose a username and a password to make your account; this link works for {days, plural, one {# day} other {# days}}.',
  'mail.invitation.action': 'Accept the invitation',
  'mail.invitation.existing-lead':
    'You are invited to {where} with your account {username}. Sign in and accept within {days, plural, one {# day} other {# days}}.',
  'mail.invitation.existing-action': 'Sign in and accept',
  'mail.invitation.ignore': 'If you did not expect this, ignore this mail: nothing happens without you.',
  'account.data.title': 'Your data',
  'account.data.lead':
    'Everything this server stores about you, as a JSON file: your claims, how you sign in (without secrets), the applications you allowed, your sessions, memberships and the audit events about you.',
  'account.data.download': 'Download my data',
  'account.delete.title': 'Delete my account',
  'account.delete.lead':
    'This deletes your account for good: every application loses access, your passwords, passkeys, second factors and sessions are removed. The audit trail keeps its records without your personal data.',
  'account.delete.confirm': 'Type your username, {username}, to confirm',
  'account.delete.submit': 'Delete my account for good',
  'account.delete.fresh':
    'Deleting the account needs a sign-in made in the last 10 minutes: confirm it is you above first.',
  'account.deleted.title': 'Account deleted',
  'account.deleted.lead': 'Your account and what it held are deleted, and you are signed out everywhere.',
  'sign-in.sign-up': 'Create an account',
  'sign-up.title': 'Create an account',
  'sign-up.lead': 'We send a mail to your address to verify it; then you sign in with it and your password.',
  'sign-up.domains': 'Addresses at {domains} only.',
  'sign-up.email': 'E-mail address',
  'sign-up.name': 'Name',
  'sign-up.submit': 'Create the account',
  'sign-up.alert.address': 'Type the address you receive mail at, such as name@example.com.',
  'sign-up.alert.domain': 'Use an address at {domains}.',
  'sign-up.alert.name': 'Type a name of at most 128 characters, on one line.',
  'sign-up.passkey-lead':
    'We send a mail to your address to verify it; then you sign in with the passkey this page makes on your device.',
  'sign-up.passkey-unavailable':
    'Accounts here are made with a passkey, and this browser cannot make one: open this page in a browser or on a device that can.',
  'sign-up.alert.passkey': 'The passkey could not be verified, and nothing was made. Try again with the button below.',
  'sign-up.sent.lead':
    'If no account has this address yet, a mail with a link to verify it is on its way there: open it within {hours} hours to finish. If the address has an account already, its owner is told instead.',
  'mail.sign-up-taken.subject': 'Someone tried to sign up with your address',
  'mail.sign-up-taken.lead':
    'Someone asked to create an account with this e-mail address, which belongs to your account {username} already. No account was created.',
  'mail.sign-up-taken.action': 'Reset your password',
  'mail.sign-up-taken.ignore':
    'If it was you, sign in with that account, or choose a new password with the link above. If it was not you, ignore this mail: nothing changed.',
  'account.email.change-label': 'New address',
  'account.email.change-submit': 'Change the address',
  'account.email.change-hint': 'The address changes once the new one is verified: a link and a code are mailed to it.',
  'account.email.change-fresh':
    'Changing the address needs a sign-in made in the last 10 minutes: confirm it is you above first.',
  'account.notice.email-change-sent':
    'A mail with a link and a code is on its way to the new address. Your address changes when you verify it, within 24 hours.',
  'account.notice.email-change-wait':
    'Too many address changes were asked for. Open the newest mail, or try again later.',
  'account.notice.email-changed': 'Your e-mail address is changed and verified.',
  'verify.code.lead-any': 'Type the six-digit code of the newest verification mail.',
  'mail.email-change.subject': 'Confirm your new e-mail address',
  'mail.email-change.lead':
    'Confirm that this is the new e-mail address of your account {username}. Until you do, the account keeps its old address.',
  'mail.email-change.ignore': 'If you did not ask for this, ignore this mail: nothing changes.',
  'mail.email-change-notice.subject': 'Your e-mail address is being changed',
  'mail.email-change-notice.lead':
    'Someone signed in to your account {username} asked to change its address to {email}. It changes only once that address is verified; until then this one stays.',
  'mail.email-change-notice.action': 'Open your account',
  'mail.email-change-notice.ignore':
    'If it was not you, sign in, change your password and check your account: nothing has changed yet.',
  'mail.email-change-taken.subject': 'Someone tried to use your address for another account',
  'mail.email-change-taken.lead':
    'Someone asked to make this e-mail address the address of another account. It belongs to your account {username} already, so nothing changed.',
  'mail.email-change-taken.ignore':
    'If it was you, sign in with that account, or choose a new password with the link above. If it was not you, ignore this mail.',
  'invite.passkey.hint':
    'Or make the account with a passkey instead of a password: your device keeps it, and you sign in with it.',
  'invite.passkey.submit': 'Create my account with a passkey',
  'invite.done.passkey-lead':
    'The account {username} is made with your passkey and your address is verified. Sign in with the passkey.',
} as const;

/** The id of a message of the pages. */
export type MessageId = keyof typeof en;
