import { ProblemError } from '@gatehouse/contract';
import type { ServerConfig } from '../config.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { MailWorker, testMessage, transportFor, type MailLog } from '../mail/index.js';
import type { MailMetadata } from '../store/mail-repository.js';
import { parseCommand, unknownCommand, UsageError, type CommandDeclaration } from './declaration.js';
import { withContext, withStore } from './open-context.js';
import type { CliIo } from './run.js';

const MAX_LIMIT = 1000;

const TEST = {
  name: 'mail test',
  summary: 'queue a test message and send it at once, as the server would',
  options: { to: { type: 'string', value: 'ADDR', required: true, help: 'the address to send it to' } },
  notes: [
    'Sent through SMTP_URL (or written to MAIL_OUTBOX_DIR without it), from MAIL_FROM. Not sent, it stays',
    'queued and a running server retries it; exit 1 says why (an SMTP reply code or an error code).',
  ],
} as const satisfies CommandDeclaration;

const OUTBOX = {
  name: 'mail outbox',
  summary: 'the outbox: messages per state, and the newest that failed',
  options: { limit: { type: 'string', value: 'N', help: `at most N failed messages, 1 to ${MAX_LIMIT} (20)` } },
} as const satisfies CommandDeclaration;

export const MAIL_COMMANDS: readonly CommandDeclaration[] = [TEST, OUTBOX];

/** The CLI prints JSON only: what the transports would log goes nowhere. */
const QUIET: MailLog = { info: () => {}, warn: () => {} };

/** `gatehouse mail test --to ADDR` and `gatehouse mail outbox [--limit N]`. */
export async function mailCommand([sub, ...args]: string[], config: ServerConfig, io: CliIo): Promise<number> {
  switch (sub) {
    case 'test': {
      const { values } = parseCommand(TEST, args);
      io.out(JSON.stringify(await sendTestMessage(config, values.to as string), null, 2));
      return 0;
    }
    case 'outbox': {
      const { values } = parseCommand(OUTBOX, args);
      const limit = values.limit === undefined ? 20 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
        throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
      const outbox = await withStore(config, async (store) => ({
        counts: await store.countMailByState(),
        queue: await store.mailQueue(),
        failed: await store.listFailedMail(limit),
      }));
      io.out(
        JSON.stringify(
          {
            counts: outbox.counts,
            oldest_waiting_since: iso(outbox.queue.oldestCreatedMs),
            failed: outbox.failed.map(mailJson),
          },
          null,
          2,
        ),
      );
      return 0;
    }
    default:
      throw unknownCommand('mail command', sub, MAIL_COMMANDS);
  }
}

/**
 * Queues the test message through the outbox (checked, sealed, audited like any message) and sends
 * that one message at once with a worker of this process; a failure is an error (exit 1).
 */
async function sendTestMessage(config: ServerConfig, to: string): Promise<Record<string, unknown>> {
  return withContext(config, async (context) => {
    const queued = await context.audit
      .transaction((tx, audit) =>
        context.mail.queueMail({ tx, audit }, testMessage(to, context.issuer, config.branding.name)),
      )
      .catch((error: unknown) => {
        // A bad address is the operator's to correct: refused (exit 1), as any operator input.
        throw error instanceof ProblemError ? new OperatorInputError(error.detail) : error;
      });
    const transport = transportFor(config.mail.transport, QUIET);
    const worker = new MailWorker({
      store: context.store,
      audit: context.audit,
      outbox: context.mail,
      transport,
      from: config.mail.from,
      policy: config.mail.policy,
      log: QUIET,
      now: () => context.clock.now(),
    });
    let handled: number;
    try {
      handled = await worker.deliverDue(queued.id);
    } finally {
      await worker.stop();
    }
    const mail = await context.store.findMail(queued.id);
    if (handled === 0 && mail?.state === 'sending')
      throw new Error(
        `a running server claimed the test message ${queued.id} first and is sending it; gatehouse mail outbox tells how it went`,
      );
    if (mail?.state !== 'sent')
      throw new Error(
        `the test message ${queued.id} was not sent (${mail?.lastError ?? 'not attempted'}) through ${transport.description}; ` +
          'it stays in the outbox, and a running server tries it again (gatehouse mail outbox)',
      );
    return { ...mailJson(mail), transport: transport.description };
  });
}

function mailJson(mail: MailMetadata): Record<string, unknown> {
  return {
    id: mail.id,
    kind: mail.kind,
    to: mail.recipient,
    message_id: mail.messageId,
    state: mail.state,
    attempts: mail.attempts,
    last_error: mail.lastError,
    queued_at: iso(mail.createdMs),
    finished_at: iso(mail.finishedMs),
  };
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
