import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ProblemError } from '@gatehouse/contract';
import { checkedAddress, checkedMessage, smtpSettingsFrom, type MailMessage } from '../src/mail/index.js';
import { mailSettingsFromEnv } from '../src/mail/settings.js';

const MESSAGE: MailMessage = {
  to: 'alice@example.com',
  subject: 'Reset your password',
  text: 'Open https://id.example/reset?t=secret',
  html: '<p><a href="https://id.example/reset?t=secret">Reset</a></p>',
  locale: 'en',
  kind: 'password_reset',
  links: ['https://id.example/reset?t=secret'],
};

/** The catalog code a call is refused with, or 'accepted'. */
function outcome(work: () => unknown): string {
  try {
    work();
    return 'accepted';
  } catch (error) {
    assert.ok(error instanceof ProblemError, `refused with a catalog error: ${String(error)}`);
    return error.code;
  }
}

describe('a message is checked before it is queued', () => {
  it('one bare address is accepted as given, an international domain and local part too', () => {
    for (const address of ['alice@example.com', 'a.b+tag@sub.example.co.uk', 'jürgen@bücher.de', 'x@localhost'])
      assert.equal(checkedAddress(address), address);
  });

  it('an address with CR or LF anywhere is refused with invalid_email_address (no header injection)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('\r', '\n', '\r\n', '\u0000', '\u2028', '\t'),
        fc.string({ maxLength: 40 }),
        (before, control, after) => {
          const address = `${before}alice@example.com${control}${after}`;
          assert.equal(
            outcome(() => checkedAddress(address)),
            'invalid_email_address',
          );
          assert.equal(
            outcome(() => checkedMessage({ ...MESSAGE, to: address })),
            'invalid_email_address',
          );
        },
      ),
    );
  });

  it("what nodemailer's parser reads as something else than one bare address is refused", () => {
    for (const address of [
      '',
      'alice',
      '@example.com',
      'alice@',
      'a@b@example.com',
      'Alice <alice@example.com>',
      '<alice@example.com>',
      'alice@example.com, bob@example.com',
      'group: alice@example.com;',
      'alice@example.com (comment)',
      '"a b"@example.com',
      'a b@example.com',
      'alice@[127.0.0.1]',
      'alice@127.0.0.1',
      'alice@exa mple.com',
      'alice@example..com',
      'alice@ex/ample.com',
      `${'a'.repeat(65)}@example.com`,
      `a@${'b'.repeat(250)}.com`,
    ])
      assert.equal(
        outcome(() => checkedAddress(address)),
        'invalid_email_address',
        JSON.stringify(address),
      );
  });

  it('a subject line with a line break is refused with invalid_email_message (RFC 5322 §2.2: one header, one line)', () => {
    for (const subject of ['Hello\r\nBcc: victim@example.com', 'Hello\nthere', 'a\u0085b', 'x'.repeat(999), ' '])
      assert.equal(
        outcome(() => checkedMessage({ ...MESSAGE, subject })),
        'invalid_email_message',
      );
  });

  it('empty bodies, a malformed kind or locale, and a link that is not an http(s) URL are refused', () => {
    for (const broken of [
      { text: '' },
      { html: '  ' },
      { kind: 'Password Reset' },
      { kind: '' },
      { locale: 'not a locale!' },
      { locale: '' },
      { links: ['javascript:alert(1)'] },
      { links: ['https://id.example/\r\nx'] },
    ])
      assert.equal(
        outcome(() => checkedMessage({ ...MESSAGE, ...broken })),
        'invalid_email_message',
      );
  });

  it('a good message is kept as given, its locale made canonical', () => {
    assert.deepEqual(checkedMessage({ ...MESSAGE, locale: 'pt-br' }), { ...MESSAGE, locale: 'pt-BR' });
  });
});

describe('SMTP_URL and MAIL_FROM', () => {
  it('smtp:// requires STARTTLS unless the URL says otherwise; smtps:// is TLS from the start (RFC 8314 §3.3)', () => {
    const plain = smtpSettingsFrom('smtp://user%40x:p%3Ass@mail.example:2525');
    assert.deepEqual(
      { ...plain, description: undefined },
      {
        kind: 'smtp',
        host: 'mail.example',
        port: 2525,
        secure: false,
        starttls: 'required',
        user: 'user@x',
        pass: 'p:ss',
        description: undefined,
      },
    );
    assert.equal(plain.kind === 'smtp' && plain.description.includes('p:ss'), false, 'the password is never said');
    assert.equal(smtpSettingsFrom('smtp://mail.example?starttls=never').kind === 'smtp', true);
    const never = smtpSettingsFrom('smtp://mail.example?starttls=never');
    assert.equal(never.kind === 'smtp' && never.starttls, 'never');
    const implicit = smtpSettingsFrom('smtps://mail.example');
    assert.equal(implicit.kind === 'smtp' && implicit.secure && implicit.port, 465);
    const submission = smtpSettingsFrom('smtp://mail.example');
    assert.equal(submission.kind === 'smtp' && submission.port, 587);
  });

  it('a URL of another scheme, with a path, an unknown parameter or a starttls of another value stops the start', () => {
    for (const url of [
      'http://mail.example',
      'smtp://',
      'smtp://mail.example/x',
      'smtp://mail.example?tls=off',
      'smtp://mail.example?starttls=maybe',
      'smtps://mail.example?starttls=never',
    ])
      assert.throws(() => smtpSettingsFrom(url), /SMTP_URL/, url);
  });

  it('without SMTP_URL mail goes to .eml files; MAIL_FROM is checked like a recipient', () => {
    const settings = mailSettingsFromEnv({}, 'https://id.example', '/srv/gatehouse');
    assert.deepEqual(settings.transport, { kind: 'files', dir: '/srv/gatehouse/data/outbox' });
    assert.equal(settings.from, 'Gatehouse <no-reply@id.example>');
    assert.equal(mailSettingsFromEnv({}, 'http://127.0.0.1:3000', '/x').from, 'Gatehouse <no-reply@localhost>');
    const named = mailSettingsFromEnv({ MAIL_FROM: 'Acme ID <id@acme.example>' }, 'https://id.example', '/x');
    assert.equal(named.from, 'Acme ID <id@acme.example>');
    for (const from of ['id@acme.example\r\nBcc: x@y.example', 'a@b.example, c@d.example', 'nobody'])
      assert.throws(() => mailSettingsFromEnv({ MAIL_FROM: from }, 'https://id.example', '/x'), /MAIL_FROM/);
    assert.throws(
      () => mailSettingsFromEnv({ MAIL_MAX_ATTEMPTS: '0' }, 'https://id.example', '/x'),
      /MAIL_MAX_ATTEMPTS/,
    );
  });
});
