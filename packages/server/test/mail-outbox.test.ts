import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { after, before, describe, it } from 'node:test';
import { AuditTrail } from '../src/audit/audit.js';
import { FactorSealing } from '../src/factors/sealing.js';
import { Outbox, type MailMessage } from '../src/mail/index.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { DIALECTS, freshDatabase } from './_dialects.js';

const MESSAGE: MailMessage = {
  to: 'alice@example.com',
  subject: 'Your code is 424242',
  text: 'Open https://id.example/verify?t=link-secret',
  html: '<p><a href="https://id.example/verify?t=link-secret">Verify</a></p>',
  locale: 'en',
  kind: 'email_verification',
  links: ['https://id.example/verify?t=link-secret'],
  userSubject: 'subject-of-alice',
};

/** The outbox's storage on both dialects: atomic with the change, sealed at rest, claimed under a lease. */
for (const dialect of DIALECTS)
  describe(`the mail outbox in the store [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let store: Store;
    let second: Store;
    let audit: AuditTrail;
    let outbox: Outbox;
    let nowMs = 1_800_000_000_000;

    before(async () => {
      database = await freshDatabase(dialect);
      store = await openStore(database.url);
      second = await openStore(database.url);
      audit = new AuditTrail(store, () => {});
      const sealing = new FactorSealing('a store secret of the test', undefined);
      outbox = new Outbox({ sealing, audit, host: 'id.example', now: () => 1_800_000_000, nowMs: () => nowMs });
    });
    after(async () => {
      await store?.close();
      await second?.close();
      await database?.drop();
    });

    const queue = (message: MailMessage = MESSAGE) =>
      audit.transaction((tx, record) => outbox.queueMail({ tx, audit: record }, message));
    const claim = (on: Store, limit = 10, leaseMs = 60_000) =>
      on.transaction((tx) =>
        tx.claimDueMail({ now: nowMs, leaseToken: `lease-${Math.random()}`, leaseUntilMs: nowMs + leaseMs, limit }),
      );
    /** Ends every message waiting, so that each test starts from an empty queue. */
    async function drain(): Promise<void> {
      nowMs += 10_000_000;
      for (const mail of await claim(store, 1000))
        await store.transaction((tx) =>
          tx.finishMail(mail.id, mail.leaseToken, { state: 'sent', at: nowMs, error: null }),
        );
    }

    it('a message is queued in the transaction of the change that causes it: rolled back, nothing is queued', async () => {
      const before = await store.countMailByState();
      await assert.rejects(
        audit.transaction(async (tx, record) => {
          await outbox.queueMail({ tx, audit: record }, MESSAGE);
          throw new Error('the change failed');
        }),
        /the change failed/,
      );
      assert.deepEqual(await store.countMailByState(), before);
      assert.equal((await store.listAuditEvents({ event: 'mail_queued', limit: 10 })).length, 0);
    });

    it('its content (subject line, bodies, links) is sealed at rest and opens only as its own message', async () => {
      const { id, messageId } = await queue();
      assert.equal(messageId, `<${id}@id.example>`);
      const [mail] = await claim(store);
      assert.ok(mail && mail.content !== null);
      for (const secret of ['424242', 'link-secret', 'Verify']) assert.ok(!mail.content.includes(secret), secret);
      assert.deepEqual(outbox.open(mail), {
        subject: MESSAGE.subject,
        text: MESSAGE.text,
        html: MESSAGE.html,
        links: MESSAGE.links,
      });
      assert.throws(() => outbox.open({ id: 'another', content: mail.content }));
      assert.equal(mail.recipient, 'alice@example.com');
      assert.equal(mail.subject, 'subject-of-alice');
      await drain();
    });

    it('the audit event names the kind, the domain and the user, never the address, the content or a link', async () => {
      const { id } = await queue();
      const [event] = (await store.listAuditEvents({ event: 'mail_queued', limit: 100 })).slice(-1);
      assert.equal(event?.reason, `email_verification to @example.com, message ${id}`);
      assert.equal(event?.subject, 'subject-of-alice');
      assert.ok(!JSON.stringify(event).includes('alice@'));
      await drain();
    });

    it('sent, the content is erased and the metadata kept; the end of a lapsed lease changes nothing', async () => {
      const { id } = await queue();
      const [mail] = await claim(store, 10, 1000);
      assert.ok(mail);
      nowMs += 2000;
      const [again] = await claim(second);
      assert.equal(again?.id, id, 'a lease that lapsed (its node died) is claimed again');
      assert.equal(again?.attempts, 2);
      const late = { state: 'sent', at: nowMs, error: null } as const;
      assert.equal(await store.transaction((tx) => tx.finishMail(id, mail.leaseToken, late)), false);
      assert.equal(await store.transaction((tx) => tx.finishMail(id, again.leaseToken, late)), true);
      const row = await rawRow(database.url, id);
      assert.equal(row?.state, 'sent');
      assert.equal(row?.content, null);
      assert.equal(row?.recipient, 'alice@example.com');
      assert.equal(row?.message_id, `<${id}@id.example>`);
    });

    it('a message given back unsent by a stopping worker is due at once, that claim not counted as an attempt', async () => {
      const { id } = await queue();
      const [mail] = await claim(store);
      assert.ok(mail);
      assert.equal(await store.transaction((tx) => tx.releaseMail(id, mail.leaseToken)), true);
      const [again] = await claim(store);
      assert.equal(again?.id, id);
      assert.equal(again?.attempts, 1);
      await drain();
    });

    it('of 40 messages claimed by two stores at once, in batches, every one is claimed exactly once', async () => {
      for (let i = 0; i < 40; i++) await queue({ ...MESSAGE, to: `user${i}@example.com` });
      const claimed: string[] = [];
      await Promise.all(
        [store, second, store, second].map(async (on) => {
          for (let batch = await claim(on, 3); batch.length > 0; batch = await claim(on, 3))
            claimed.push(...batch.map((m) => m.id));
        }),
      );
      assert.equal(claimed.length, 40);
      assert.equal(new Set(claimed).size, 40);
      await drain();
    });
  });

/** The row as a reader of the database sees it, content included. */
async function rawRow(url: string, id: string): Promise<Record<string, unknown> | undefined> {
  if (url.startsWith('sqlite:')) {
    const database = new BetterSqlite3(url.slice('sqlite:'.length), { readonly: true });
    try {
      return database.prepare('select * from mail_outbox where id = ?').get(id) as Record<string, unknown> | undefined;
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('select * from mail_outbox where id = $1', [id])).rows[0] as Record<string, unknown>;
  } finally {
    await client.end();
  }
}
