import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { ServerContext } from '../src/context.js';
import { runCli } from '../src/cli/run.js';
import { createContext } from '../src/server.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { DIALECTS, freshDatabase, type Dialect } from './_dialects.js';
import { GATEHOUSE_BIN } from './_processes.js';
import { SHIPPED_OPENAPI } from './_server.js';
import { TEST_CA_FILE, TestSmtpServer } from './_smtp.js';
import { startGroup, type Group } from './_stopping.js';
import { until } from './_until.js';

const ISSUER = 'http://gatehouse.test';

/**
 * The outbox across processes: `gatehouse serve` processes (each leading a process group, killed by
 * group) sending to a real SMTP server, messages queued by this process on the same database.
 */
interface Setup {
  readonly env: Record<string, string>;
  readonly store: Store;
  readonly context: ServerContext;
  close(): Promise<void>;
}

async function setUp(dialect: Dialect, smtp: TestSmtpServer): Promise<Setup> {
  const database = await freshDatabase(dialect);
  const env = {
    DATABASE_URL: database.url,
    ISSUER,
    OPENAPI_PATH: SHIPPED_OPENAPI,
    SMTP_URL: smtp.url,
    SMTP_CA_FILE: TEST_CA_FILE,
    MAIL_POLL_MS: '100',
    MAIL_RETRY_MS: '50',
    MAIL_LEASE_MS: '2000',
    MAIL_MAX_ATTEMPTS: '100',
  };
  assert.equal(await runCli(['migrate'], env, { out: () => {}, err: () => {} }), 0);
  const store = await openStore(database.url, { migrations: 'check' });
  const context = await createContext(store, ISSUER, { auditSink: () => {} });
  return {
    env,
    store,
    context,
    async close() {
      await store.close();
      await database.drop();
    },
  };
}

/** Queues `count` messages from this process; returns their Message-IDs. */
async function queueMessages({ context }: Setup, count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const to = `${prefix}${i}@example.com`;
    const { messageId } = await context.audit.transaction((tx, audit) =>
      context.mail.queueMail(
        { tx, audit },
        { to, kind: 'test', locale: 'en', subject: `To ${to}`, text: `Hello ${to}`, html: `<p>Hello ${to}</p>` },
      ),
    );
    ids.push(messageId);
  }
  return ids;
}

async function settled(store: Store, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; (await store.mailQueue()).waiting > 0; await sleep(50))
    assert.ok(Date.now() < deadline, 'every message was sent');
}

async function allSent(store: Store, count: number): Promise<void> {
  await until(async () => (await store.countMailByState()).sent >= count, `${count} messages recorded sent`);
}

const serve = (env: Record<string, string>): Promise<Group> =>
  startGroup(process.execPath, [GATEHOUSE_BIN, 'serve'], { ...env, LOG_LEVEL: 'info' });

async function sentBy(group: Group): Promise<number> {
  const text = await (await fetch(`${group.url}/metrics`)).text();
  return Number(/^gatehouse_mail_messages_total\{outcome="sent"\} (\d+)$/m.exec(text)?.[1]);
}

for (const dialect of DIALECTS)
  describe(`the outbox shared by gatehouse serve processes [${dialect}]`, () => {
    const smtp = new TestSmtpServer({ holdMs: 20 });
    let setup: Setup;
    const groups: Group[] = [];

    before(async () => {
      await smtp.start();
      setup = await setUp(dialect, smtp);
    });
    after(async () => {
      for (const group of groups) {
        group.kill();
        await group.exited;
      }
      await setup?.close();
      await smtp.stop();
    });

    it('two processes on one database share the queue: 100 messages, each sent once, by both', async (t) => {
      const [a, b] = await Promise.all([serve(setup.env), serve(setup.env)]);
      groups.push(a, b);
      smtp.arrived.length = 0;
      const ids = await queueMessages(setup, 100, 'shared');
      await smtp.waitFor(100);
      await settled(setup.store);
      // A message is recorded sent after its SMTP transaction: once all are, none can go again.
      await allSent(setup.store, 100);
      assert.deepEqual(smtp.arrived.map((m) => m.messageId).sort(), [...ids].sort(), 'every message once, none twice');
      const [byA, byB] = [await sentBy(a), await sentBy(b)];
      assert.equal(byA + byB, 100);
      assert.ok(byA > 0 && byB > 0, `both processes sent (${byA} and ${byB})`);
      t.diagnostic(`sent by one process: ${byA}, by the other: ${byB}`);
      for (const group of groups.splice(0)) {
        group.signalGroup('SIGTERM');
        assert.equal((await group.exited).code, 0, group.output());
      }
    });

    it('kill -9 of the sending process loses no queued message; the one in hand at the kill may go twice, same Message-ID', async (t) => {
      const first = await serve(setup.env);
      groups.push(first);
      smtp.arrived.length = 0;
      const ids = await queueMessages(setup, 40, 'crash');
      await smtp.waitFor(3);
      first.kill();
      await first.exited;
      const arrivedAtKill = smtp.arrived.length;
      assert.ok(arrivedAtKill < 40, `the kill came while messages were queued (${arrivedAtKill} had arrived)`);
      groups.push(await serve(setup.env));
      await smtp.waitFor(40);
      await settled(setup.store);
      await allSent(setup.store, 40);
      const arrived = smtp.arrived.map((m) => m.messageId);
      assert.deepEqual([...new Set(arrived)].sort(), [...ids].sort(), 'every queued message arrived');
      assert.ok(arrived.length - 40 <= 1, `at most the message in hand was sent twice (${arrived.length - 40})`);
      t.diagnostic(`${arrivedAtKill} of 40 had arrived at the kill; ${arrived.length - 40} sent twice`);
      assert.equal((await setup.store.countMailByState()).sent >= 40, true);
    });
  });

describe('gatehouse mail test and gatehouse mail outbox', () => {
  const smtp = new TestSmtpServer();
  let setup: Setup;

  before(async () => {
    await smtp.start();
    setup = await setUp('sqlite', smtp);
  });
  after(async () => {
    await setup?.close();
    await smtp.stop();
  });

  async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let [out, err] = ['', ''];
    const code = await runCli(argv, setup.env, { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  }

  it('mail test queues the test message and sends it at once, over STARTTLS', async () => {
    const { code, out, err } = await cli('mail', 'test', '--to', 'operator@example.com');
    assert.equal(code, 0, err);
    const answer = JSON.parse(out) as Record<string, unknown>;
    assert.equal(answer.state, 'sent');
    assert.equal(answer.to, 'operator@example.com');
    assert.match(String(answer.transport), /^SMTP smtp:\/\/127\.0\.0\.1:\d+ \(STARTTLS required\)$/);
    const [mail] = await smtp.waitFor(1);
    assert.equal(mail?.messageId, answer.message_id);
    assert.equal(mail?.subject, 'Gatehouse test message');
    assert.equal(mail?.secure, true);
  });

  it('an address with a line break is refused (exit 1) and nothing is queued', async () => {
    const before = await setup.store.countMailByState();
    const { code, err } = await cli('mail', 'test', '--to', 'operator@example.com\r\nBcc: x@example.com');
    assert.equal(code, 1);
    assert.equal((JSON.parse(err) as { error: string }).error, 'refused');
    assert.deepEqual(await setup.store.countMailByState(), before);
  });

  it('not sent (the SMTP server is down), it fails with exit 1 and stays queued; mail outbox shows it', async () => {
    await smtp.stop();
    const { code, err } = await cli('mail', 'test', '--to', 'later@example.com');
    assert.equal(code, 1);
    assert.match((JSON.parse(err) as { message: string }).message, /was not sent \((ESOCKET|ECONNECTION)\b/);
    const outbox = await cli('mail', 'outbox');
    assert.equal(outbox.code, 0);
    const answer = JSON.parse(outbox.out) as { counts: Record<string, number>; oldest_waiting_since: string };
    assert.deepEqual(answer.counts, { queued: 1, sending: 0, sent: 1, failed: 0 });
    assert.match(answer.oldest_waiting_since, /^\d{4}-\d{2}-\d{2}T/);
  });
});
