import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { simpleParser } from 'mailparser';
import { DEFAULT_DELIVERY_POLICY, smtpSettingsFrom, type MailMessage, type MailSettings } from '../src/mail/index.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';
import { TestSmtpServer } from './_smtp.js';
import { TEST_CA } from './_tls.js';
import { until } from './_until.js';

/** Retries within a second, so that an outage of a test lasts a test's time. */
const FAST = { ...DEFAULT_DELIVERY_POLICY, pollMs: 100, retryMs: 50, maxRetryMs: 400, maxAttempts: 100 };
const FROM = 'Gatehouse <no-reply@gatehouse.test>';

function smtpSettings(url: string, policy = FAST): MailSettings {
  return { transport: smtpSettingsFrom(url, TEST_CA), from: FROM, policy };
}

function message(to: string, kind = 'test'): MailMessage {
  return {
    to,
    kind,
    locale: 'en',
    subject: `Hello ${to}`,
    text: `Open https://gatehouse.test/x?t=${to}`,
    html: `<p><a href="https://gatehouse.test/x?t=${to}">Open</a></p>`,
    links: [`https://gatehouse.test/x?t=${to}`],
  };
}

async function queue(server: TestServer, mail: MailMessage): Promise<{ id: string; messageId: string }> {
  const { context } = server;
  return context.audit.transaction((tx, audit) => context.mail.queueMail({ tx, audit }, mail));
}

/** Waits until no message of the outbox is queued or being sent. */
async function settled(server: TestServer, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; (await server.context.store.mailQueue()).waiting > 0; await sleep(20))
    assert.ok(Date.now() < deadline, 'the outbox settled');
}

/**
 * The outbox's worker against a real SMTP server (smtp-server, STARTTLS with the test certificate),
 * every message read back with mailparser, on both dialects.
 */
for (const dialect of DIALECTS)
  describe(`mail is delivered from the outbox through SMTP [${dialect}]`, () => {
    const smtp = new TestSmtpServer();
    let server: TestServer;

    before(async () => {
      await smtp.start();
      const url = `smtp://mailer:s3cret@127.0.0.1:${smtp.port}`;
      server = await startTestServer({ dialect, mail: smtpSettings(url), metricsToken: 'scrape' });
    });
    after(async () => {
      await server?.close();
      await smtp.stop();
    });

    it('a queued message arrives once, over STARTTLS and authenticated, with the Message-ID of its outbox row', async () => {
      smtp.arrived.length = 0;
      const queued = await queue(server, message('alice@example.com'));
      const [mail] = await smtp.waitFor(1);
      await settled(server);
      assert.equal(smtp.arrived.length, 1);
      assert.equal(mail?.messageId, queued.messageId);
      assert.equal(mail?.secure, true, 'STARTTLS');
      assert.equal(mail?.user, 'mailer');
      assert.match(mail?.from ?? '', /^"?Gatehouse"? <no-reply@gatehouse\.test>$/);
      assert.equal(mail?.to, 'alice@example.com');
      assert.equal(mail?.subject, 'Hello alice@example.com');
      assert.match(mail?.text ?? '', /https:\/\/gatehouse\.test\/x\?t=alice@example\.com/);
      assert.equal(mail?.headers.get('auto-submitted'), 'auto-generated');
      const stored = await server.context.store.findMail(queued.id);
      assert.equal(stored?.state, 'sent');
      const events = await server.context.store.listAuditEvents({ event: 'mail_sent', limit: 10 });
      assert.equal(events.at(-1)?.reason, `test to @example.com, message ${queued.id}, attempt 1`);
    });

    it('an SMTP outage delays 100 messages and loses none: each arrives once when the server is back', async () => {
      smtp.arrived.length = 0;
      await smtp.stop();
      const queued = await Promise.all(
        Array.from({ length: 100 }, (_, i) => queue(server, message(`user${i}@example.com`))),
      );
      // Every message was tried and refused at least once while the server was down. Each refusal is
      // its own durable transaction (an fsync on SQLite): on a loaded machine 100 of them take tens of
      // seconds, so the deadline is a guard against a worker that stopped, not a timing.
      for (const deadline = Date.now() + 120_000; ; await sleep(50)) {
        const tried = await Promise.all(queued.map(({ id }) => server.context.store.findMail(id)));
        if (tried.every((m) => m?.state === 'queued' && m.attempts >= 1 && m.lastError !== null)) break;
        assert.ok(Date.now() < deadline, 'every message was tried during the outage');
      }
      assert.equal(smtp.arrived.length, 0);
      await smtp.start();
      await smtp.waitFor(100);
      await settled(server);
      // A message is recorded sent after its SMTP transaction: once all are, none can go again.
      await until(
        async () => (await server.context.store.countMailByState()).sent >= 101,
        'every message recorded sent',
      );
      const ids = smtp.arrived.map((m) => m.messageId).sort();
      assert.deepEqual(ids, queued.map((q) => q.messageId).sort(), 'every message once, none twice');
      assert.deepEqual(await server.context.store.countMailByState(), {
        queued: 0,
        sending: 0,
        sent: 101,
        failed: 0,
      });
    });

    it('the metrics count what this process queued and sent, and read the queue at each scrape', async () => {
      const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer scrape' } })).text();
      assert.match(text, /^gatehouse_mail_messages_total\{outcome="queued"\} 101$/m);
      assert.match(text, /^gatehouse_mail_messages_total\{outcome="sent"\} 101$/m);
      assert.match(text, /^gatehouse_mail_messages_total\{outcome="failed"\} 0$/m);
      assert.match(text, /^gatehouse_mail_queue_messages 0$/m);
      assert.match(text, /^gatehouse_mail_queue_oldest_age_seconds 0$/m);
    });
  });

describe('the worker of the process that queued a message', () => {
  it('wakes once the transaction committed: the message goes at once, not at the next poll', async () => {
    const smtp = new TestSmtpServer();
    await smtp.start();
    const server = await startTestServer({ mail: smtpSettings(smtp.url, { ...FAST, pollMs: 600_000 }) });
    try {
      await sleep(200);
      const started = Date.now();
      const { messageId } = await queue(server, message('erin@example.com'));
      const [mail] = await smtp.waitFor(1, 10_000);
      assert.equal(mail?.messageId, messageId);
      assert.ok(Date.now() - started < 10_000);
    } finally {
      await server.close();
      await smtp.stop();
    }
  });
});

describe('mail that must not, or cannot, be sent', () => {
  it('a server that offers no STARTTLS gets nothing: smtp:// requires it, and the message waits for a retry', async () => {
    const smtp = new TestSmtpServer({ plaintextOnly: true });
    await smtp.start();
    const server = await startTestServer({ mail: smtpSettings(smtp.url) });
    try {
      const { id } = await queue(server, message('carol@example.com'));
      for (const deadline = Date.now() + 10_000; ; await sleep(20)) {
        const mail = await server.context.store.findMail(id);
        if (mail?.lastError) {
          assert.notEqual(mail.state, 'sent');
          assert.match(mail.lastError, /^ETLS\b/);
          break;
        }
        assert.ok(Date.now() < deadline, 'the attempt failed');
      }
      assert.equal(smtp.arrived.length, 0);
    } finally {
      await server.close();
      await smtp.stop();
    }
  });

  it('a recipient the SMTP server refuses for good (5yz, RFC 5321 §4.2.1) fails at once, its content erased', async () => {
    const smtp = new TestSmtpServer({ refuseRecipients: true });
    await smtp.start();
    const server = await startTestServer({ mail: smtpSettings(smtp.url) });
    try {
      const { id } = await queue(server, message('nobody@example.com'));
      await settled(server);
      const mail = await server.context.store.findMail(id);
      assert.equal(mail?.state, 'failed');
      assert.equal(mail?.attempts, 1);
      assert.equal(mail?.lastError, 'EENVELOPE 550');
      const [event] = await server.context.store.listAuditEvents({ event: 'mail_failed', limit: 1 });
      assert.equal(event?.reason, `test to @example.com, message ${id}, after 1 attempts: EENVELOPE 550`);
    } finally {
      await server.close();
      await smtp.stop();
    }
  });

  it('without SMTP_URL each message is written as a parsable .eml file, 0600, named by its time and id', async () => {
    let server: TestServer | undefined;
    try {
      const dir = join(process.env.TMPDIR ?? '/tmp', `gatehouse-outbox-${process.pid}-${Date.now()}`);
      server = await startTestServer({
        mail: { transport: { kind: 'files', dir }, from: FROM, policy: FAST },
      });
      const { id, messageId } = await queue(server, message('dave@example.com', 'test'));
      await settled(server);
      const files = readdirSync(dir);
      assert.equal(files.length, 1);
      assert.match(files[0] as string, new RegExp(`^\\d{8}T\\d{9}Z-${id}\\.eml$`));
      const file = join(dir, files[0] as string);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const parsed = await simpleParser(readFileSync(file));
      assert.equal(parsed.messageId, messageId);
      assert.equal(parsed.subject, 'Hello dave@example.com');
      assert.match(parsed.text ?? '', /t=dave@example\.com/);
      assert.match(typeof parsed.html === 'string' ? parsed.html : '', /<a href=/);
    } finally {
      await server?.close();
    }
  });
});
