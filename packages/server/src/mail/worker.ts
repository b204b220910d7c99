import type { AuditTrail } from '../audit/audit.js';
import { randomHex } from '../primitives/random.js';
import type { ClaimedMail } from '../store/mail-repository.js';
import type { Store } from '../store/store.js';
import { retryDelayMs, type DeliveryPolicy } from './delivery-policy.js';
import { mailReason, type MailContent, type Outbox } from './outbox.js';
import type { MailLog, MailTransport } from './transports.js';

export interface MailWorkerOptions {
  readonly store: Pick<Store, 'transaction'>;
  readonly audit: AuditTrail;
  readonly outbox: Outbox;
  readonly transport: MailTransport;
  /** MAIL_FROM. */
  readonly from: string;
  readonly policy: DeliveryPolicy;
  readonly log: MailLog;
  /** The audit events' clock, epoch seconds. */
  readonly now: () => number;
  readonly nowMs?: () => number;
  readonly random?: () => number;
}

/** How one attempt went: sent, to be retried, or failed for good. */
type Attempt = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly permanent: boolean };

/**
 * Sends the outbox's messages; one in every `serve` process (and every worker of `serve --workers`).
 * It claims due messages under a lease (mail-repository.ts: PostgreSQL's SKIP LOCKED, SQLite's write
 * transaction), so two processes never hold one message at once, sends each, and marks it sent; a
 * failed attempt is retried after an exponential, jittered delay until `maxAttempts`, then the
 * message fails for good. Every end checks the lease token, and a send is begun only with
 * `sendBudgetMs` of the lease left, so a message is never sent by a node whose claim has lapsed.
 *
 * What is not excluded: a node killed after the SMTP server accepted a message and before its "sent"
 * committed leaves it `sending`; when the lease lapses another node sends it again, once, with the
 * same Message-ID, by which the receiving side can tell.
 *
 * It wakes when a message queued in this process commits (Outbox.onQueued) and otherwise looks every
 * `pollMs`; `stop` waits for the message in hand and gives the rest of its claim back.
 */
export class MailWorker {
  readonly #options: MailWorkerOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopping = false;
  #unwatch: (() => void) | undefined;

  constructor(options: MailWorkerOptions) {
    this.#options = options;
  }

  start(): void {
    this.#unwatch = this.#options.outbox.onQueued(() => this.wake());
    this.#schedule(0);
  }

  /** Looks for due messages now (or right after the pass under way). */
  wake(): void {
    if (this.#stopping) return;
    if (this.#running) this.#again = true;
    else this.#schedule(0);
  }

  /** Stops looking, lets the message being sent finish, gives back the others claimed, closes the transport. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#unwatch?.();
    clearTimeout(this.#timer);
    await this.#running;
    this.#options.transport.close();
  }

  /**
   * Sends what is due, batch after batch, until nothing is: one pass of the loop, for the loop and
   * for `gatehouse mail test` (with `only`, its own message and no other). Returns how many it handled.
   */
  async deliverDue(only?: string): Promise<number> {
    const { policy } = this.#options;
    let handled = 0;
    for (;;) {
      const now = this.#nowMs();
      const claimed = await this.#options.store.transaction((tx) =>
        tx.claimDueMail({
          now,
          leaseToken: randomHex(16),
          leaseUntilMs: now + policy.leaseMs,
          limit: policy.batchSize,
          ...(only === undefined ? {} : { only }),
        }),
      );
      for (const [index, mail] of claimed.entries()) {
        if (this.#stopping || this.#nowMs() > mail.leaseUntilMs - policy.sendBudgetMs) {
          await this.#release(claimed.slice(index));
          return handled;
        }
        await this.#deliver(mail);
        handled += 1;
      }
      if (claimed.length < policy.batchSize) return handled;
    }
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    if (this.#stopping) return;
    this.#timer = setTimeout(() => void this.#run(), delayMs);
  }

  async #run(): Promise<void> {
    if (this.#running || this.#stopping) return;
    this.#running = (async () => {
      do {
        this.#again = false;
        try {
          await this.deliverDue();
        } catch (error) {
          // The store is down or busy: the messages wait in it; the next poll tries again.
          this.#options.log.warn({ err: error }, 'mail: could not claim due messages; trying again at the next poll');
        }
      } while (this.#again && !this.#stopping);
    })();
    await this.#running;
    this.#running = undefined;
    this.#schedule(this.#options.policy.pollMs);
  }

  async #deliver(mail: ClaimedMail): Promise<void> {
    const { policy } = this.#options;
    if (mail.attempts > policy.maxAttempts)
      return this.#end(mail, { ok: false, error: mail.lastError ?? 'interrupted', permanent: true });
    let content: MailContent;
    try {
      content = this.#options.outbox.open(mail);
    } catch (error) {
      this.#options.log.warn({ err: error, mail: mail.id }, 'mail: a message does not open; it fails');
      return this.#end(mail, { ok: false, error: 'content_unreadable', permanent: true });
    }
    return this.#end(mail, await this.#attempt(mail, content));
  }

  async #attempt(mail: ClaimedMail, content: MailContent): Promise<Attempt> {
    try {
      await this.#options.transport.send({
        id: mail.id,
        kind: mail.kind,
        from: this.#options.from,
        to: mail.recipient,
        messageId: mail.messageId,
        createdMs: mail.createdMs,
        ...content,
      });
      return { ok: true };
    } catch (error) {
      const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
      const reply = typeof responseCode === 'number' ? responseCode : undefined;
      // RFC 5321 §4.2.1: a 5yz reply to the envelope or the message is permanent; 4yz and no
      // reply (a connection, TLS or authentication failure the operator can mend) are tried again.
      const permanent = reply !== undefined && reply >= 500 && (code === 'EENVELOPE' || code === 'EMESSAGE');
      const name = typeof code === 'string' ? code : (error as Error).name;
      return { ok: false, error: reply === undefined ? name : `${name} ${reply}`, permanent };
    }
  }

  /** Records how the attempt ended, if this worker's lease still holds: sent, retried later, or failed. */
  async #end(mail: ClaimedMail, attempt: Attempt): Promise<void> {
    const { policy, now } = this.#options;
    const at = this.#nowMs();
    const retry = !attempt.ok && !attempt.permanent && mail.attempts < policy.maxAttempts;
    const held = await this.#options.audit.transaction(async (tx, audit) => {
      if (retry) {
        const delay = retryDelayMs(mail.attempts, policy, this.#options.random);
        return tx.requeueMail(mail.id, mail.leaseToken, at + delay, attempt.error);
      }
      const state = attempt.ok ? 'sent' : 'failed';
      if (!(await tx.finishMail(mail.id, mail.leaseToken, { state, at, error: attempt.ok ? null : attempt.error })))
        return false;
      const more = attempt.ok ? `, attempt ${mail.attempts}` : `, after ${mail.attempts} attempts: ${attempt.error}`;
      await audit({
        event: attempt.ok ? 'mail_sent' : 'mail_failed',
        at: now(),
        subject: mail.subject,
        reason: mailReason(mail, more),
      });
      return true;
    });
    if (!held)
      this.#options.log.warn({ mail: mail.id }, 'mail: the claim on a message lapsed before its attempt ended');
    else if (retry)
      this.#options.log.warn(
        { mail: mail.id, attempts: mail.attempts, error: attempt.ok ? undefined : attempt.error },
        'mail: an attempt failed; the message is retried later',
      );
  }

  async #release(mails: readonly ClaimedMail[]): Promise<void> {
    await this.#options.store.transaction(async (tx) => {
      for (const mail of mails) await tx.releaseMail(mail.id, mail.leaseToken);
    });
  }

  #nowMs(): number {
    return (this.#options.nowMs ?? Date.now)();
  }
}
